/** A report's summary, counted from its clusters: the one place the rule of each count is written. Pure. */
import type { ClusterReport, ReportSummary } from './report-shape.ts';

/** How many hosts the run had and how many of them could not be reached. */
export type HostCount = Pick<ReportSummary, 'hosts' | 'unreachable'>;

/** The inventory hosts among the clusters' nodes, a host unreachable when any of its nodes was. */
export function hostsOf(clusters: readonly ClusterReport[]): HostCount {
  const up = new Map<string, boolean>();
  for (const c of clusters)
    for (const n of c.nodes) if (n.host !== null) up.set(n.host, (up.get(n.host) ?? true) && n.reachable);
  return { hosts: up.size, unreachable: [...up.values()].filter((reached) => !reached).length };
}

/** `checks_failed` counts the checks of status fail (a waived one is not); hosts from `hosts`, else the nodes'. */
export function summaryOf(clusters: readonly ClusterReport[], hosts: HostCount = hostsOf(clusters)): ReportSummary {
  return {
    clusters: clusters.length,
    hosts: hosts.hosts,
    unreachable: hosts.unreachable,
    checks_failed: clusters.reduce((n, c) => n + c.checks.filter((k) => k.status === 'fail').length, 0),
  };
}
