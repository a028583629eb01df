/** `one_of: [..]` / `not_one_of: [..]`: the value is (is not) one of them. */
import { fails, HOLDS, same, show } from '../judge/verdict.ts';
import { valuesShape } from '../load/forms.ts';
import type { MatcherKind } from './kind.ts';

export const oneOf: MatcherKind<'one_of'> = {
  doc: { write: '`one_of: [..]`', holds: 'is one of them' },
  absent: 'fails',
  shape: valuesShape,
  each: true,
  load: (r, at, v) => {
    const values = r.list(at, v, 'one_of', (ip, x) => r.scalar(ip, x, 'an item of one_of'));
    return values && { kind: 'one_of', values };
  },
  judge: (m, v) => (m.values.some((x) => same(v, x)) ? HOLDS : fails(`is ${show(v)}, not one of ${show(m.values)}`)),
};

export const notOneOf: MatcherKind<'not_one_of'> = {
  doc: { write: '`not_one_of: [..]`', holds: 'is none of them' },
  absent: 'holds',
  shape: valuesShape,
  each: true,
  load: (r, at, v) => {
    const values = r.list(at, v, 'not_one_of', (ip, x) => r.scalar(ip, x, 'an item of not_one_of'));
    return values && { kind: 'not_one_of', values };
  },
  judge: (m, v) => (!m.values.some((x) => same(v, x)) ? HOLDS : fails(`is ${show(v)}`)),
};
