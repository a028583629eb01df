/** `length: {at_least: N, at_most: N}`: a list's items or a string's characters. */
import * as v from 'valibot';
import { fails, HOLDS, show } from '../judge/verdict.ts';
import type { MatcherKind } from './kind.ts';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const length: MatcherKind<'length'> = {
  doc: {
    write: '`length: {at_least: N, at_most: N}`',
    holds: 'is a list with that many items, or a string with that many characters (either bound, or both)',
  },
  absent: 'fails',
  shape: v.pipe(
    v.strictObject({ at_least: v.optional(count), at_most: v.optional(count) }),
    v.minEntries(1),
    v.description('at least one bound'),
  ),
  load: (r, at, x) => {
    const o = r.map(at, x, 'length', ['at_least', 'at_most']);
    if (!o) return undefined;
    if (!('at_least' in o) && !('at_most' in o)) return r.bad(at, 'length needs at_least, at_most or both');
    const n = (k: 'at_least' | 'at_most') =>
      Number.isSafeInteger(o[k]) && (o[k] as number) >= 0
        ? (o[k] as number)
        : r.bad([...at, k], `length ${k} must be a whole number, not ${JSON.stringify(o[k])}`);
    const least = 'at_least' in o ? n('at_least') : undefined;
    const most = 'at_most' in o ? n('at_most') : undefined;
    if (('at_least' in o && least === undefined) || ('at_most' in o && most === undefined)) return undefined;
    return {
      kind: 'length',
      ...(least !== undefined ? { atLeast: least } : {}),
      ...(most !== undefined ? { atMost: most } : {}),
    };
  },
  judge: (m, x) => {
    const n = typeof x === 'string' ? [...x].length : Array.isArray(x) ? x.length : undefined;
    if (n === undefined) return { error: `${show(x)} is neither a list nor a string` };
    const what = typeof x === 'string' ? 'characters' : 'items';
    if (m.atLeast !== undefined && n < m.atLeast) return fails(`has ${n} ${what}, fewer than ${m.atLeast}`);
    if (m.atMost !== undefined && n > m.atMost) return fails(`has ${n} ${what}, more than ${m.atMost}`);
    return HOLDS;
  },
};
