/** audit end to end: gather, correlate, check, and the report (schema/report.json). No output here: the CLI renders. */
import { SCHEMA_VERSION, VERSION } from '../base/version.ts';
import type { Clock } from '../base/clock.ts';
import { maxFileBytes } from '../base/limits.ts';
import { parseLong, stringifyLong } from '../base/json-long.ts';
import { allocationLeftover, pinsOf } from './pins.ts';
import { leaseNote } from '../facts/lease-note.ts';
import { fleetOf, type FleetRun, type ReachDeps, tracedWiring, type Trace } from '../reach/index.ts';
import { defaultDeps } from './deps.ts';
import { correlate } from './correlate.ts';
import { gatherAll, type GatheredCluster, type MapLimit } from './gather.ts';
import type {
  CheckId,
  CheckResult,
  ClusterFacts,
  ClusterReport,
  ClusterTopology,
  Report,
  Pack,
  HostFacts,
  LayoutChoice,
  ReportLayout,
} from '../model/index.ts';
import { summaryOf } from '../model/index.ts';
import { judgePacks, needsOf, refuseConflicts } from '../packs/index.ts';
import { newAuditMemo, type AuditMemo } from './memo.ts';

/** What audit builds on: the checks, --forks, the clock, and (tests) how the fleet is reached. */
export interface AuditDeps extends Partial<ReachDeps>, Pick<Clock, 'now'> {
  runChecks(facts: ClusterFacts, only?: CheckId[]): CheckResult[];
  /** Restarts listed once per node and service, the last in order kept (the vendor's checks do it among themselves). */
  restartsOnce?(results: CheckResult[]): CheckResult[];
  mapLimit: MapLimit;
  /** What the checks looked at, node by node (the HTML report's pictures); tests on fakes may leave it out. */
  topology?: (facts: ClusterFacts) => ClusterTopology;
}

export interface RunAuditOptions extends FleetRun {
  forks: number;
  only?: CheckId[];
  onProgress?: (done: number, total: number) => void;
  /** -v: told every connection, command and request with its time. */
  trace?: Trace;
  /** Check packs: their sources join the batched reads, and one result per pack check follows the vendor's five. */
  packs?: Pack[];
  /** serve: the facts and reports of the last cycles, kept where nothing they came from changed. */
  memo?: AuditMemo;
  /** What audit builds on (reaching hosts and clusters, the checks, the clock); what is left out is the real module. */
  deps?: Partial<AuditDeps>;
}

/** serve's memory between cycles (audit/memo.ts), made here: above audit, only this module is imported. */
export const cycleMemo = (o: Parameters<typeof newAuditMemo>[0]): AuditMemo => newAuditMemo(o);

const auditDeps = (o: RunAuditOptions): AuditDeps => ({ ...defaultDeps, ...o.deps });

export async function runAudit(o: RunAuditOptions): Promise<Report> {
  const d = auditDeps(o);
  if (o.memo) o.memo.kept = { hosts: 0, clusters: 0 };
  const fleet = fleetOf({ ...o, deps: d }, { forks: o.forks, decorate: (r) => tracedWiring(r, o.trace) });
  try {
    const groups = fleet.clusters;
    const apis = new Map(groups.map((g) => [g.apiUrl, fleet.api(g.apiUrl)]));
    const gathered = await gatherAll({
      groups,
      configs: fleet.hosts,
      apis,
      forks: o.forks,
      timeout: o.timeout,
      maxFileBytes: maxFileBytes(o.env),
      mapLimit: d.mapLimit,
      connect: (cfg) => fleet.transport(cfg.name),
      ...(o.packs?.length ? { packs: needsOf(o.packs) } : {}),
      ...(o.onProgress ? { onProgress: o.onProgress } : {}),
      ...(o.memo ? { memo: o.memo } : {}),
    });
    const clusters = gathered.map((g) =>
      o.memo ? keptReport(o.memo, g, d, o.only, o.packs) : clusterReport(g, d, o.only, o.packs),
    );
    if (o.memo) forgetOthers(o.memo, o.hosts, gathered);
    return {
      schema_version: SCHEMA_VERSION,
      generated_at: new Date(d.now()).toISOString(),
      tool: 'smdoctor',
      version: VERSION,
      mode: 'audit',
      clusters,
      // the inventory's hosts, a host of no cluster too
      summary: summaryOf(clusters, {
        hosts: o.hosts.length,
        unreachable: gathered.reduce((n, g) => n + g.hosts.filter((h) => !h.reachable).length, 0),
      }),
    };
  } finally {
    await fleet.close();
  }
}

/**
 * The cluster's report of the last cycle when its hosts' facts are the very ones it was made from and its API
 * answered the same: nothing is correlated or judged again. Time-dependent parts (a fix's lease, the packs' ages)
 * are judged again every cycle.
 */
function keptReport(memo: AuditMemo, g: GatheredCluster, d: AuditDeps, only?: CheckId[], packs?: Pack[]) {
  const had = memo.clusters.get(g.group.apiUrl);
  // the same answers give the very same facts object (gather-api): then no text is made to compare them
  const api = had?.facts === g.api ? had.api : stringifyLong(g.api);
  const timeless = !packs?.length && leaseNote(g.api.lease, d.now()) === null;
  if (
    had &&
    timeless &&
    had.api === api &&
    had.hosts.length === g.hosts.length &&
    had.hosts.every((h, i) => h === g.hosts[i])
  ) {
    memo.kept.clusters += 1;
    return had.report;
  }
  const report = clusterReport(g, d, only, packs);
  memo.clusters.set(g.group.apiUrl, { api, facts: g.api, hosts: g.hosts, report });
  return report;
}

/** Hosts and clusters no longer audited (a reload): their memory goes. */
function forgetOthers(memo: AuditMemo, hosts: readonly string[], gathered: readonly GatheredCluster[]): void {
  const selected = new Set(hosts);
  for (const h of memo.hosts.keys()) if (!selected.has(h)) memo.hosts.delete(h);
  const urls = new Set(gathered.map((g) => g.group.apiUrl));
  for (const u of memo.clusters.keys()) if (!urls.has(u)) memo.clusters.delete(u);
}

function clusterReport(g: GatheredCluster, d: AuditDeps, only?: CheckId[], packs?: Pack[]): ClusterReport {
  const { nodes, notes } = correlate(g.hosts, g.api);
  const facts: ClusterFacts = {
    apiUrl: g.group.apiUrl,
    name: g.api.clusterName ?? g.group.apiUrl,
    hosts: g.hosts,
    api: g.api,
    nodes,
  };
  const vendor = d.runChecks(facts, only);
  const checks = packs?.length
    ? (d.restartsOnce ?? ((r) => r))(
        refuseConflicts([...vendor, ...judgePacks(packs, facts, { now: new Date(d.now()) })]),
      )
    : vendor;
  const byHost = new Map(g.hosts.map((h) => [h.host, h]));
  const reportNodes: ClusterReport['nodes'] = nodes.map((n) => ({
    host: n.host ?? null,
    address: n.ip,
    name: n.name,
    roles: n.roles,
    // a node outside the inventory was not reached over SSH
    reachable: n.host ? byHost.get(n.host)!.reachable : false,
    ...layoutField(n.host ? byHost.get(n.host) : undefined),
  }));
  for (const h of g.hosts.filter((x) => !nodes.some((n) => n.host === x.host))) {
    reportNodes.push({
      host: h.host,
      address: h.config.address,
      name: null,
      roles: [],
      reachable: h.reachable,
      ...layoutField(h),
    });
  }
  const pins = g.api.reachable ? pinsOf(g.api) : undefined;
  const leftover = pins ? allocationLeftover(pins) : null;
  if (leftover) notes.push(leftover.note);
  const lease = leaseNote(g.api.lease, d.now());
  if (lease) notes.push(lease);
  // plain data only: the report must survive its JSON unchanged (an integer past 2^53 from the API stays exact)
  const text = stringifyLong({
    api_url: g.group.apiUrl,
    name: facts.name,
    nodes: reportNodes,
    notes,
    checks,
    ...(leftover ? { actions: [leftover.action] } : {}),
    ...(pins ? { pins } : {}),
    ...(d.topology ? { topology: d.topology(facts) } : {}),
  });
  return (/\d{16}/.test(text) ? parseLong(text) : JSON.parse(text)) as ClusterReport;
}

/** The folders a reached host was read in, and why: the report's `layout` of its node. */
function layoutField(h: HostFacts | undefined): { layout?: ReportLayout } {
  const l = h?.layout;
  if (!l) return {};
  const f = (c: LayoutChoice) => ({ path: c.path, why: c.why });
  return {
    layout: {
      engine_config: f(l.engineConfig),
      engine_home: f(l.engineHome),
      web_config: f(l.webConfig),
      web_home: f(l.webHome),
      ...(l.refused?.length ? { refused: [...l.refused] } : {}),
    },
  };
}
