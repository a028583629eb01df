/** `present: true|false`: the value is set / is absent. */
import * as v from 'valibot';
import { fails, HOLDS, show } from '../judge/verdict.ts';
import type { MatcherKind } from './kind.ts';

export const present: MatcherKind<'present'> = {
  doc: {
    write: '`present: true` / `present: false`',
    holds: 'is set / is absent',
    absent: 'holds for `present: false`',
  },
  absent: 'judged',
  shape: v.boolean(),
  load: (r, at, x) =>
    typeof x === 'boolean' ? { kind: 'present', value: x } : r.bad(at, 'present must be true or false'),
  judge: (m, x) => ((x !== undefined) === m.value ? HOLDS : fails(m.value ? 'is absent' : `is set to ${show(x)}`)),
};
