/** One matcher over one value on one node: holds, fails with why, or cannot be decided (an error, never a failure). */
import type { PackMatcher } from '../../model/index.ts';
import { matcherKind } from '../matchers/registry.ts';
import { fails, HOLDS, type MatchContext, type Verdict } from './verdict.ts';

/**
 * The absent value (`undefined`) is judged by the matcher's `absent` rule, the same for every source: a matcher that
 * asks for something fails (`absent` says why: "is absent", "has no line matching …"), one that asks for its absence
 * holds. A matcher of one value (`each`) over a list holds for every item; the failing ones are named.
 */
export function match(m: PackMatcher, v: unknown, c: MatchContext, absent = 'is absent'): Verdict {
  const k = matcherKind(m.kind);
  const one = (x: unknown): Verdict =>
    x === undefined && k.absent !== 'judged' ? (k.absent === 'holds' ? HOLDS : fails(absent)) : k.judge(m, x, c);
  if (k.each && Array.isArray(v)) {
    const bad = v.map((x) => ({ x, r: one(x) })).filter(({ r }) => !('holds' in r && r.holds));
    const error = bad.find(({ r }) => 'error' in r);
    if (error) return error.r;
    return bad.length ? fails(bad.map(({ r }) => (r as { why: string }).why).join('; ')) : HOLDS;
  }
  return one(v);
}
