/** One matcher over one value on one node: holds, fails with why, or cannot be decided (an error, never a failure). */
import type { PackMatcher } from '../../model/index.ts';
import { matcherKind } from '../matchers/registry.ts';
import { fails, HOLDS, type MatchContext, type Verdict } from './verdict.ts';

export function match(m: PackMatcher, v: unknown, c: MatchContext): Verdict {
  const k = matcherKind(m.kind);
  if (k.each && Array.isArray(v)) {
    // a matcher of one value over a list holds for every element; the failing ones are named
    const bad = v.map((x) => ({ x, r: k.judge(m, x, c) })).filter(({ r }) => !('holds' in r && r.holds));
    const error = bad.find(({ r }) => 'error' in r);
    if (error) return error.r;
    return bad.length ? fails(bad.map(({ r }) => (r as { why: string }).why).join('; ')) : HOLDS;
  }
  return k.judge(m, v, c);
}
