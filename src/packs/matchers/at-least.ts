/** `at_least: N` / `at_most: N`: the value as a number; N may carry a unit (`31g`, `512m`, `30d`). */
import { asNumber, fails, HOLDS, show, type Verdict } from '../judge/verdict.ts';
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

const compare = (v: unknown, bound: number, least: boolean): Verdict => {
  const n = asNumber(v);
  if (n === undefined) return v === undefined ? fails('is absent') : { error: `${show(v)} is not a number` };
  return (least ? n >= bound : n <= bound) ? HOLDS : fails(`is ${show(v)}, ${least ? 'below' : 'above'} ${bound}`);
};

export const atLeast: MatcherKind<'at_least'> = {
  doc: {
    write: '`at_least: N`',
    holds: 'as a number is at least N; N may carry a unit: `31g`, `512m`, `30d`, `262144`',
  },
  shape: numberShape,
  each: true,
  load: (r, at, v) => {
    const value = number(r, at, v, 'at_least');
    return value === undefined ? undefined : { kind: 'at_least', value };
  },
  judge: (m, v) => compare(v, m.value, true),
};

export const atMost: MatcherKind<'at_most'> = {
  doc: { write: '`at_most: N`', holds: 'as a number is at most N' },
  shape: numberShape,
  each: true,
  load: (r, at, v) => {
    const value = number(r, at, v, 'at_most');
    return value === undefined ? undefined : { kind: 'at_most', value };
  },
  judge: (m, v) => compare(v, m.value, false),
};
