/** The plan of one cluster as the playbook runs it: fix's order (the elected manager's restart last), each with its check. */
import type { Action, AnyCheckId, ClusterReport } from '../model/index.ts';
import { electedLast } from '../fix/order.ts';

export interface PlanStep {
  /** 1-based, in run order: names the step's registered variables. */
  n: number;
  action: Action;
  /** The check that planned it, or `cluster` for the cluster's own actions (reset-allocation). */
  check: AnyCheckId | 'cluster';
  /** The finding it answers, for the comment above its task. */
  finding?: string;
}

export function planSteps(clusterReport: ClusterReport): PlanStep[] {
  const owner = new Map<Action, { check: AnyCheckId | 'cluster'; finding?: string }>();
  for (const a of clusterReport.actions ?? []) owner.set(a, { check: 'cluster' });
  for (const k of clusterReport.checks)
    for (const a of k.actions) {
      const mine = k.findings.filter((x) => (x.kind ?? 'problem') === 'problem' && (!a.host || x.host === a.host));
      const named = a.type === 'remove-plugin' ? a.value : a.type === 'remove-keystore-entry' ? a.key : undefined;
      const f = mine.find((x) => named !== undefined && x.message.includes(named)) ?? mine[0];
      owner.set(a, { check: k.id, ...(f ? { finding: f.message } : {}) });
    }
  const planned = [...owner.keys()].filter((a) => a.status === 'planned');
  return electedLast(planned, clusterReport.nodes, clusterReport.pins?.elected_manager ?? null).map((a, i) => ({
    n: i + 1,
    action: a,
    ...owner.get(a)!,
  }));
}

const CHANGES_HOST = new Set(['set-yaml', 'set-hosts', 'remove-plugin', 'remove-keystore-entry']);

/** An engine restart with no change of its own host before it: planned because the node still runs an old state. */
export const restartOnly = (steps: PlanStep[], st: PlanStep): boolean =>
  st.action.type === 'restart-service' &&
  !st.action.service.endsWith('-dashboards') &&
  !steps.some((x) => x.n < st.n && x.action.host === st.action.host && CHANGES_HOST.has(x.action.type));
