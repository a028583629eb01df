/** The checks, in the vendor's troubleshooting order (CHECK_IDS), and running them with restarts listed once. */
import {
  CHECK_IDS,
  type AnyCheckId,
  type Check,
  type CheckId,
  type CheckResult,
  type ClusterFacts,
} from '../model/index.ts';
import { errText } from '../base/errors.ts';
import { baseLimitDocument } from './base-limit-document.ts';
import { masterNodeWithSme } from './master-node-with-sme.ts';
import { dashboardsHosts } from './dashboards-hosts.ts';
import { masterPlugins } from './master-plugins.ts';
import { limitsIndexReplicas } from './limits-index-replicas.ts';

// keyed by id, so that an id in CHECK_IDS without its check (or the reverse) does not compile
const CHECK_BY_ID: Readonly<Record<CheckId, Check>> = {
  'base-limit-document': baseLimitDocument,
  'master-node-with-sme': masterNodeWithSme,
  'dashboards-hosts': dashboardsHosts,
  'master-plugins': masterPlugins,
  'limits-index-replicas': limitsIndexReplicas,
};

export const CHECKS: readonly Check[] = CHECK_IDS.map((id) => CHECK_BY_ID[id]);

/** Runs the checks in order; one that is not selected is skipped, one that throws is an error and the rest still run. */
export function runChecks(
  facts: ClusterFacts,
  only?: readonly CheckId[],
  checks: readonly Check[] = CHECKS,
): CheckResult[] {
  const results = checks.map((c): CheckResult => {
    if (only && !only.includes(c.id))
      return {
        id: c.id,
        order: c.order,
        status: 'skip',
        reason: `not selected (--check ${only.join(',')})`,
        findings: [],
        actions: [],
      };
    try {
      return c.run(facts);
    } catch (e) {
      const why = errText(e);
      return {
        id: c.id,
        order: c.order,
        status: 'error',
        reason: `the check failed: ${why}`,
        findings: [],
        actions: [],
      };
    }
  });
  return dedupeRestarts(results);
}

/**
 * "Restarts are listed once per node per service": the last one in order is kept, since it runs after
 * every earlier edit; earlier checks say which check restarts for them.
 */
export function dedupeRestarts(results: CheckResult[]): CheckResult[] {
  const last = new Map<string, AnyCheckId>();
  for (const r of results)
    for (const a of r.actions) if (a.type === 'restart-service') last.set(`${a.host}\0${a.service}`, r.id);
  return results.map((r) => {
    const moved = r.actions.filter((a) => a.type === 'restart-service' && last.get(`${a.host}\0${a.service}`) !== r.id);
    if (moved.length === 0) return r;
    const actions = r.actions.filter((a) => !moved.includes(a));
    const notes = moved.map((a) => {
      const by = last.get(`${a.host}\0${a.service}`)!;
      return {
        host: a.host,
        kind: 'note' as const,
        message: `the restart of ${a.service} on ${a.host} is planned by check ${by}, which runs after this check's changes`,
        evidence: { planned_by: by, command: a.command },
      };
    });
    return { ...r, actions, findings: [...r.findings, ...notes] };
  });
}

export { baseLimitDocument, masterNodeWithSme, dashboardsHosts, masterPlugins, limitsIndexReplicas };
export { BASE_LIMIT_DEFAULTS } from './base-limit-document.ts';
export { autoExpand } from './limits-index-replicas.ts';
export { topologyOf } from './topology.ts';
