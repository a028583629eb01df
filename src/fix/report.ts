/** The fix report, made of the plan and what applying it did. Pure: the plan is never modified, the report is new. */
import type { Action, ClusterReport, Report } from '../model/index.ts';
import { plannedActions } from './apply.ts';
import type { ActionOutcome, ApplyOutcome, ClusterOutcome } from './outcome.ts';

/** The action as the fix report shows it: a copy with its status and what the step said (fields in the report's order). */
export function settledAction(action: Action, o: ActionOutcome): Action {
  const s: Action = { ...action, status: o.status === 'refused' ? 'skipped' : o.status };
  if (o.reason !== undefined) s.reason = o.reason;
  if (o.status === 'failed') s.error = o.error;
  if ('backup' in o && o.backup !== undefined) s.backup = o.backup;
  if ('output' in o && o.output !== undefined) s.output = o.output;
  return s;
}

/** One cluster's report with the outcome merged in; parts that did not change are shared with the plan, not copied. */
function settledCluster(clusterReport: ClusterReport, o: ClusterOutcome | undefined): ClusterReport {
  if (o && o.api_url !== clusterReport.api_url)
    throw new Error(`outcome of ${o.api_url} given for cluster ${clusterReport.api_url}`);
  const planned = plannedActions(clusterReport);
  if (!o || (o.actions.length === 0 && o.refused.length === 0)) return { ...clusterReport };
  if (o.actions.length !== 0 && o.actions.length !== planned.length)
    throw new Error(`${clusterReport.api_url}: ${o.actions.length} outcomes for ${planned.length} planned actions`);
  const settled = new Map(o.actions.map((x, i) => [planned[i]!, x]));
  const settle = (a: Action): Action => {
    const x = settled.get(a);
    return x ? settledAction(a, x) : a;
  };
  return {
    ...clusterReport,
    checks: clusterReport.checks.map((k) => ({ ...k, actions: k.actions.map(settle) })),
    ...(clusterReport.actions ? { actions: clusterReport.actions.map(settle) } : {}),
    ...(o.refused.length ? { refused: [...(clusterReport.refused ?? []), ...o.refused] } : {}),
  };
}

/** The report with the outcomes of each cluster (one per cluster of the plan, in its order) and mode `fix`. */
function settledReport(plan: Report, clusters: readonly ClusterOutcome[]): Report {
  if (clusters.length !== plan.clusters.length)
    throw new Error(`${clusters.length} cluster outcomes for ${plan.clusters.length} clusters`);
  return { ...plan, mode: 'fix', clusters: plan.clusters.map((c, i) => settledCluster(c, clusters[i])) };
}

/** The checks of the audit after applying, per cluster (matched by api_url). */
const afterOf = (c: ClusterReport, after: Report): ClusterReport['after'] | undefined => {
  const a = after.clusters.find((x) => x.api_url === c.api_url);
  return a ? { checks: a.checks.map((k) => ({ id: k.id, status: k.status, reason: k.reason })) } : undefined;
};

/** A reviewed plan whose drifted clusters are refused (fix --plan): nothing was applied yet, so no fix summary. */
export function driftReport(plan: Report, drift: readonly ClusterOutcome[]): Report {
  return settledReport(plan, drift);
}

/**
 * The fix report: the plan with every action's outcome, the clusters' refusals, the fix summary and, when the audit
 * after applying ran, each cluster's checks as it saw them.
 */
export function fixReport(plan: Report, applied: ApplyOutcome, after: Report | null = null): Report {
  const r = settledReport(plan, applied.clusters);
  if (after)
    r.clusters = r.clusters.map((c) => {
      const a = afterOf(c, after);
      return a ? { ...c, after: a } : c;
    });
  const all = r.clusters.flatMap((c) => [...(c.actions ?? []), ...c.checks.flatMap((k) => k.actions)]);
  const count = (s: Action['status']): number => all.filter((a) => a.status === s).length;
  return {
    ...r,
    fix: { done: count('done'), failed: count('failed'), skipped: count('skipped'), interrupted: applied.interrupted },
  };
}
