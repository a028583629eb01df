/** `equals: V` / `not_equals: V`: the value is (is not) V, booleans and numbers as the engine parses them. */
import { fails, HOLDS, same, show } from '../judge/verdict.ts';
import { valueShape } from '../load/forms.ts';
import type { MatcherKind } from './kind.ts';

export const equals: MatcherKind<'equals'> = {
  doc: { write: '`equals: V`', holds: 'is V; `"true"` and `true` are the same, as the engine parses booleans' },
  absent: 'fails',
  shape: valueShape,
  each: true,
  load: (r, at, v) => {
    const value = r.scalar(at, v, 'equals');
    return value === undefined ? undefined : { kind: 'equals', value };
  },
  judge: (m, v) => (same(v, m.value) ? HOLDS : fails(`is ${show(v)}, not ${show(m.value)}`)),
};

export const notEquals: MatcherKind<'not_equals'> = {
  doc: { write: '`not_equals: V`', holds: 'is not V' },
  absent: 'holds',
  shape: valueShape,
  each: true,
  load: (r, at, v) => {
    const value = r.scalar(at, v, 'not_equals');
    return value === undefined ? undefined : { kind: 'not_equals', value };
  },
  judge: (m, v) => (!same(v, m.value) ? HOLDS : fails(`is ${show(v)}`)),
};
