/** `at_least: N` / `at_most: N`: the value as a number; N may carry a unit (`31g`, `512m`, `30d`). */
import { asNumber, bytes, fails, HOLDS, show, type Verdict } from '../judge/verdict.ts';
import { numberShape, unitNumber } from '../load/forms.ts';
import type { Reader } from '../load/load-shape.ts';
import type { Path } from '../load/load-yaml.ts';
import type { MatcherKind } from './kind.ts';

const number = (r: Reader, at: Path, v: unknown, k: string): number | undefined => {
  const n = unitNumber(v);
  return n === undefined
    ? r.bad(at, `${k} must be a number, with a unit or not (31g, 512m, 30d, 262144), not ${JSON.stringify(v)}`)
    : n;
};

/** Written with a byte unit (`31g`, `512mb`), not days or a plain number. */
const isSize = (v: unknown) => typeof v === 'string' && /[kmgt]b?$|\db$/i.test(v.trim());

const compare = (v: unknown, bound: number, least: boolean, size?: true): Verdict => {
  const n = asNumber(v);
  if (n === undefined) return v === undefined ? fails('is absent') : { error: `${show(v)} is not a number` };
  if (least ? n >= bound : n <= bound) return HOLDS;
  const shown = (x: unknown, k: number) => (size ? `${show(x)} (${bytes(k)})` : show(x));
  return fails(`is ${shown(v, n)}, ${least ? 'below' : 'above'} ${size ? shown(bound, bound) : bound}`);
};

export const atLeast: MatcherKind<'at_least'> = {
  doc: {
    write: '`at_least: N`',
    holds: 'as a number is at least N; N may carry a unit: `31g`, `512m`, `30d`, `262144`',
  },
  absent: 'fails',
  shape: numberShape,
  each: true,
  load: (r, at, v) => {
    const value = number(r, at, v, 'at_least');
    return value === undefined ? undefined : { kind: 'at_least', value, ...(isSize(v) ? { size: true as const } : {}) };
  },
  judge: (m, v) => compare(v, m.value, true, m.size),
};

export const atMost: MatcherKind<'at_most'> = {
  doc: { write: '`at_most: N`', holds: 'as a number is at most N' },
  absent: 'fails',
  shape: numberShape,
  each: true,
  load: (r, at, v) => {
    const value = number(r, at, v, 'at_most');
    return value === undefined ? undefined : { kind: 'at_most', value, ...(isSize(v) ? { size: true as const } : {}) };
  },
  judge: (m, v) => compare(v, m.value, false, m.size),
};
