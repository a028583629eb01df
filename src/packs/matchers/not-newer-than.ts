/** `not_newer_than: SOURCE`: a number at most another source's number on the same node (a file older than the process). */
import { asNumber, fails, HOLDS, show } from '../judge/verdict.ts';
import { readSourceAt, sourceRef } from '../load/source.ts';
import { describeSource } from '../read/describe.ts';
import type { MatcherKind } from './kind.ts';

export const notNewerThan: MatcherKind<'not_newer_than'> = {
  doc: {
    write: '`not_newer_than: SOURCE`',
    holds: "as a number is at most another source's on the same node (absent: holds, nothing newer to load)",
  },
  absent: 'holds',
  shape: sourceRef,
  load: (r, at, v) => {
    const source = readSourceAt(r, at, v);
    return source && { kind: 'not_newer_than', source };
  },
  sources: (m) => [m.source],
  judge: (m, v, c) => {
    // nothing to load: a file that is not there is not newer than anything
    if (v === undefined) return HOLDS;
    const o = c.other(m.source);
    if (!o.ok) return { error: o.error };
    const [a, b] = [asNumber(v), asNumber(o.value)];
    if (a === undefined || b === undefined) return { error: `${show(v)} or ${show(o.value)} is not a number` };
    return a <= b ? HOLDS : fails(`is ${show(v)}, newer than ${describeSource(m.source)} ${show(o.value)}`);
  },
};
