/** `empty: true|false`: an empty list or string (absent counts as empty), or not. */
import * as v from 'valibot';
import { fails, HOLDS, show } from '../judge/verdict.ts';
import type { MatcherKind } from './kind.ts';

export const empty: MatcherKind<'empty'> = {
  doc: {
    write: '`empty: true` / `empty: false`',
    holds: 'is (is not) an empty list or string',
    absent: 'holds for `empty: true`',
  },
  absent: 'judged',
  shape: v.boolean(),
  load: (r, at, x) => (typeof x === 'boolean' ? { kind: 'empty', value: x } : r.bad(at, 'empty must be true or false')),
  judge: (m, x) => {
    if (x === undefined) return m.value ? HOLDS : fails('is absent');
    if (typeof x !== 'string' && !Array.isArray(x)) return { error: `${show(x)} is neither a list nor a string` };
    return (x.length === 0) === m.value ? HOLDS : fails(m.value ? `is ${show(x)}, not empty` : 'is empty');
  },
};
