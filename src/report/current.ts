/** The cluster as it is now: after a fix, each check as the audit after applying saw it; the others as audited. */
import type { AnyCheckId, CheckStatus, ClusterReport } from '../model/index.ts';

export interface CurrentCheck {
  id: AnyCheckId;
  status: CheckStatus;
  reason: string;
}

export function currentChecks(clusterReport: ClusterReport): CurrentCheck[] {
  const after = new Map((clusterReport.after?.checks ?? []).map((k) => [k.id, k]));
  return clusterReport.checks.map((k) => {
    const a = after.get(k.id);
    return a ? { id: k.id, status: a.status, reason: a.reason } : { id: k.id, status: k.status, reason: k.reason };
  });
}
