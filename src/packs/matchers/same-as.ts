/** `same_as: SOURCE`: the value equals another source's value on the same node. */
import { fails, HOLDS, same, show } from '../judge/verdict.ts';
import { readSourceAt, sourceRef } from '../load/source.ts';
import { describeSource } from '../read/describe.ts';
import type { MatcherKind } from './kind.ts';

export const sameAs: MatcherKind<'same_as'> = {
  doc: { write: '`same_as: SOURCE`', holds: "equals another source's value on the same node" },
  absent: 'fails',
  shape: sourceRef,
  load: (r, at, v) => {
    const source = readSourceAt(r, at, v);
    return source && { kind: 'same_as', source };
  },
  sources: (m) => [m.source],
  judge: (m, v, c) => {
    const o = c.other(m.source);
    if (!o.ok) return { error: o.error };
    return same(v, o.value) ? HOLDS : fails(`is ${show(v)}, but ${describeSource(m.source)} is ${show(o.value)}`);
  },
};
