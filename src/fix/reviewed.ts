/**
 * `fix --plan`: the reviewed plan is only a request. Each of its clusters goes ahead with the actions the audit plans
 * now, and only when they equal the file's exactly; otherwise it is refused, every difference named.
 */
import type { ClusterReport, Report } from '../model/index.ts';
import { plannedActions } from './apply.ts';
import { planDifferences } from './drift.ts';
import { untouched, type ActionOutcome, type ClusterOutcome } from './outcome.ts';
import { driftReport } from './report.ts';

/** A cluster where nothing will run: each planned action refused with `reason`, the refusals kept. */
const refusedCluster = (c: ClusterReport, refused: string[], reason: string): ClusterOutcome => ({
  ...untouched(c.api_url),
  failed: true,
  refused,
  actions: plannedActions(c).map((): ActionOutcome => ({ status: 'refused', reason })),
});

/** Each judged cluster of `was` against the same cluster now: unchanged, it goes ahead as read now; else refused. */
function compared(was: ClusterReport[], now: Report, reason: string, judged: (url: string) => boolean) {
  let refused = 0;
  const outcomes: ClusterOutcome[] = [];
  const clusters = was.map((c) => {
    const current = now.clusters.find((x) => x.api_url === c.api_url);
    const diffs = judged(c.api_url) ? planDifferences(c, current) : null;
    if (!diffs?.length) {
      outcomes.push(untouched(c.api_url));
      return diffs && current ? current : c;
    }
    refused++;
    outcomes.push(
      refusedCluster(
        c,
        diffs.map((d) => `drift: ${d}`),
        reason,
      ),
    );
    return c;
  });
  return { clusters, outcomes, refused };
}

/** The plan to carry out (the audit's own actions, the file's clusters only) and how many clusters were refused. */
export function reviewedPlan(reviewed: Report, now: Report): { plan: Report; refused: number } {
  const r = compared(
    reviewed.clusters,
    now,
    'the plan differs from what the audit plans now: nothing was changed here',
    () => true,
  );
  return { plan: driftReport({ ...now, mode: 'fix', clusters: r.clusters }, r.outcomes), refused: r.refused };
}

/**
 * The plan as read again under the lease of the `held` clusters: each goes ahead with the actions read now, and only
 * when they and its pins equal what was planned; the other clusters keep their plan.
 */
export function leasedPlan(plan: Report, now: Report, held: string[]): { plan: Report; refused: number } {
  const r = compared(
    plan.clusters,
    now,
    'the cluster changed between the audit and taking its lease: nothing was changed here',
    (url) => held.includes(url),
  );
  return { plan: driftReport({ ...plan, clusters: r.clusters }, r.outcomes), refused: r.refused };
}

/** The plan with the clusters `why` names refused (nothing will run there), each reason kept. */
export function refuseClusters(
  plan: Report,
  why: (apiUrl: string) => string | null,
): { plan: Report; refused: number } {
  let refused = 0;
  const outcomes = plan.clusters.map((c): ClusterOutcome => {
    const reason = why(c.api_url);
    if (reason === null || !plannedActions(c).length) return untouched(c.api_url);
    refused++;
    return refusedCluster(c, [reason], reason);
  });
  return { plan: driftReport(plan, outcomes), refused };
}
