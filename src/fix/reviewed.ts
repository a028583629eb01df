/**
 * `fix --plan`: the reviewed plan is only a request. Each of its clusters goes ahead with the actions the audit plans
 * now, and only when they equal the file's exactly; otherwise it is refused, every difference named.
 */
import type { Report } from '../model/index.ts';
import { plannedActions } from './apply.ts';
import { planDifferences } from './drift.ts';
import { untouched, type ActionOutcome, type ClusterOutcome } from './outcome.ts';
import { driftReport } from './report.ts';

/** The plan to carry out (the audit's own actions, the file's clusters only) and how many clusters were refused. */
export function reviewedPlan(reviewed: Report, now: Report): { plan: Report; refused: number } {
  let refused = 0;
  const outcomes: ClusterOutcome[] = [];
  const clusters = reviewed.clusters.map((c) => {
    const current = now.clusters.find((x) => x.api_url === c.api_url);
    const diffs = planDifferences(c, current);
    if (!diffs.length && current) {
      outcomes.push(untouched(c.api_url));
      return current;
    }
    refused++;
    const reason = 'the plan differs from what the audit plans now: nothing was changed here';
    outcomes.push({
      ...untouched(c.api_url),
      failed: true,
      refused: diffs.map((d) => `drift: ${d}`),
      actions: plannedActions(c).map((): ActionOutcome => ({ status: 'refused', reason })),
    });
    return c;
  });
  return { plan: driftReport({ ...now, mode: 'fix', clusters }, outcomes), refused };
}

/**
 * The plan as read again under the lease of the `held` clusters: each goes ahead with the actions read now, and only
 * when they and its pins equal what was planned; the other clusters keep their plan.
 */
export function leasedPlan(plan: Report, now: Report, held: string[]): { plan: Report; refused: number } {
  let refused = 0;
  const outcomes: ClusterOutcome[] = [];
  const clusters = plan.clusters.map((c) => {
    const current = now.clusters.find((x) => x.api_url === c.api_url);
    const diffs = held.includes(c.api_url) ? planDifferences(c, current) : [];
    if (!diffs.length) {
      outcomes.push(untouched(c.api_url));
      return held.includes(c.api_url) && current ? current : c;
    }
    refused++;
    const reason = 'the cluster changed between the audit and taking its lease: nothing was changed here';
    outcomes.push({
      ...untouched(c.api_url),
      failed: true,
      refused: diffs.map((d) => `drift: ${d}`),
      actions: plannedActions(c).map((): ActionOutcome => ({ status: 'refused', reason })),
    });
    return c;
  });
  return { plan: driftReport({ ...plan, clusters }, outcomes), refused };
}

/** The plan with the clusters `why` names refused (nothing will run there), each reason kept. */
export function refuseClusters(
  plan: Report,
  why: (apiUrl: string) => string | null,
): { plan: Report; refused: number } {
  let refused = 0;
  const outcomes = plan.clusters.map((c): ClusterOutcome => {
    const reason = why(c.api_url);
    const actions = plannedActions(c);
    if (reason === null || !actions.length) return untouched(c.api_url);
    refused++;
    return {
      ...untouched(c.api_url),
      failed: true,
      refused: [reason],
      actions: actions.map((): ActionOutcome => ({ status: 'refused', reason })),
    };
  });
  return { plan: driftReport(plan, outcomes), refused };
}
