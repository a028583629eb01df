/** audit end to end: gather, correlate, check, and the report of PRODUCT.md. No output here: the CLI renders. */
import type { ClusterApi } from '../cluster/types.ts';
import type { Inventory } from '../inventory/types.ts';
import { SCHEMA_VERSION, VERSION } from '../version.ts';
import { allocationLeftover, pinsOf } from './pins.ts';
import { leaseNote } from './lease-note.ts';
import { tunnelHostsFor } from '../cluster/tunnel-hosts.ts';
import type { ReachDeps } from '../reach/index.ts';
import { defaultDeps } from './deps.ts';
import { correlate } from './correlate.ts';
import { gatherAll, type GatheredCluster, type MapLimit } from './gather.ts';
import { tracedWiring, type Trace } from './trace.ts';
import type { CheckId, CheckResult, ClusterFacts, ClusterReport, ClusterTopology, Report } from '../model/index.ts';

export interface AuditDeps extends ReachDeps {
  runChecks(facts: ClusterFacts, only?: CheckId[]): CheckResult[];
  mapLimit: MapLimit;
  /** What the checks looked at, node by node (the HTML report's pictures); tests on fakes may leave it out. */
  topology?: (facts: ClusterFacts) => ClusterTopology;
}

export interface RunAuditOptions {
  inventory: Inventory;
  hosts: string[];
  forks: number;
  /** Seconds per remote command and per REST request. */
  timeout: number;
  only?: CheckId[];
  env: NodeJS.ProcessEnv;
  onProgress?: (done: number, total: number) => void;
  warn?: (message: string) => void;
  /** -v: told every connection, command and request with its time. */
  trace?: Trace;
  /** What audit builds on (reaching hosts and clusters, the checks); what is left out is the real module. */
  deps?: Partial<AuditDeps>;
}

const auditDeps = (o: RunAuditOptions): AuditDeps => tracedWiring<AuditDeps>({ ...defaultDeps, ...o.deps }, o.trace);

export async function runAudit(o: RunAuditOptions): Promise<Report> {
  const d = auditDeps(o);
  const configs = new Map(o.hosts.map((h) => [h, d.hostConfig(o.inventory, h, o.env)]));
  const groups = d.clustersOf(o.inventory, o.hosts);
  const apis = new Map<string, ClusterApi>();
  try {
    for (const g of groups) {
      const first = configs.get(g.hosts[0]!)!;
      const tunnelHosts = tunnelHostsFor(
        first,
        g.hosts.map((h) => configs.get(h)!),
        (n) => configs.get(n) ?? d.hostConfig(o.inventory, n, o.env),
      );
      apis.set(
        g.apiUrl,
        d.api(first, {
          env: o.env,
          ...(o.warn ? { warn: o.warn } : {}),
          requestTimeout: o.timeout * 1000,
          ...(tunnelHosts ? { tunnelHosts } : {}),
        }),
      );
    }
    const gathered = await gatherAll({
      groups,
      configs,
      apis,
      forks: o.forks,
      timeout: o.timeout,
      mapLimit: d.mapLimit,
      connect: (cfg) => d.connect(cfg, { timeout: o.timeout, env: o.env, ...(o.warn ? { warn: o.warn } : {}) }),
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
    });
    const clusters = gathered.map((g) => clusterReport(g, d, o.only));
    return {
      schema_version: SCHEMA_VERSION,
      generated_at: new Date().toISOString(),
      tool: 'smdoctor',
      version: VERSION,
      mode: 'audit',
      clusters,
      summary: {
        clusters: clusters.length,
        hosts: o.hosts.length,
        unreachable: gathered.reduce((n, g) => n + g.hosts.filter((h) => !h.reachable).length, 0),
        checks_failed: clusters.reduce((n, c) => n + c.checks.filter((k) => k.status === 'fail').length, 0),
      },
    };
  } finally {
    await Promise.all([...apis.values()].map((a) => a.close().catch(() => undefined)));
  }
}

function clusterReport(g: GatheredCluster, d: AuditDeps, only?: CheckId[]): ClusterReport {
  const { nodes, notes } = correlate(g.hosts, g.api);
  const facts: ClusterFacts = {
    apiUrl: g.group.apiUrl,
    name: g.api.clusterName ?? g.group.apiUrl,
    hosts: g.hosts,
    api: g.api,
    nodes,
  };
  const checks = d.runChecks(facts, only);
  const byHost = new Map(g.hosts.map((h) => [h.host, h]));
  const reportNodes: ClusterReport['nodes'] = nodes.map((n) => ({
    host: n.host ?? null,
    address: n.ip,
    name: n.name,
    roles: n.roles,
    // a node outside the inventory was not reached over SSH
    reachable: n.host ? byHost.get(n.host)!.reachable : false,
  }));
  for (const h of g.hosts.filter((x) => !nodes.some((n) => n.host === x.host))) {
    reportNodes.push({ host: h.host, address: h.config.address, name: null, roles: [], reachable: h.reachable });
  }
  const pins = g.api.reachable ? pinsOf(g.api) : undefined;
  const leftover = pins ? allocationLeftover(pins) : null;
  if (leftover) notes.push(leftover.note);
  const lease = leaseNote(g.api.lease, Date.now());
  if (lease) notes.push(lease);
  // plain data only: the report must survive JSON.stringify/parse unchanged
  return JSON.parse(
    JSON.stringify({
      api_url: g.group.apiUrl,
      name: facts.name,
      nodes: reportNodes,
      notes,
      checks,
      ...(leftover ? { actions: [leftover.action] } : {}),
      ...(pins ? { pins } : {}),
      ...(d.topology ? { topology: d.topology(facts) } : {}),
    }),
  ) as ClusterReport;
}
