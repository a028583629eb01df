/**
 * In-process half of `npm run bench`: one runAudit over an inventory with counting
 * wrappers around the transport and REST entries of runAudit's deps, so connections, remote commands and
 * keystore-tool (JVM) starts are counted, not guessed. Prints one JSON object on stdout.
 * Usage: tsx scripts/bench-audit.ts --inventory FILE [--forks N] [--timeout S]
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { runAudit } from '../src/audit/run.ts';
import { reachDeps } from '../src/reach/deps.ts';
import { keystoreListCommand } from '../src/audit/gather-host.ts';
import { loadInventory } from '../src/inventory/load.ts';
import { selectHosts } from '../src/inventory/select.ts';
import type { Transport } from '../src/transport/types.ts';
import type { ClusterApi } from '../src/cluster/types.ts';

const { values: a } = parseArgs({
  options: {
    inventory: { type: 'string' },
    forks: { type: 'string', default: '20' },
    timeout: { type: 'string', default: '60' },
  },
});
if (!a.inventory) throw new Error('bench-audit: --inventory FILE is required');

interface HostCount {
  connections: number;
  commands: number;
  keystore: number;
  fileOps: number;
}
const perHost = new Map<string, HostCount>();
const count = (host: string): HostCount => {
  let c = perHost.get(host);
  if (!c) perHost.set(host, (c = { connections: 0, commands: 0, keystore: 0, fileOps: 0 }));
  return c;
};
let restRequests = 0;

/** Counts every exec on the connection; the keystore tool is recognised by the exact command gather-host sends. */
function countingTransport(t: Transport, ksCommand: string): Transport {
  const c = count(t.host);
  return {
    host: t.host,
    exec(command, opts) {
      c.commands++;
      if (command === ksCommand) c.keystore++;
      return t.exec(command, opts);
    },
    readFile(path, opts) {
      c.fileOps++;
      return t.readFile(path, opts);
    },
    writeFileAtomic(path, content, opts) {
      c.fileOps++;
      return t.writeFileAtomic(path, content, opts);
    },
    close: () => t.close(),
  };
}

function countingApi(api: ClusterApi): ClusterApi {
  return {
    url: api.url,
    request(req) {
      restRequests++;
      return api.request(req);
    },
    close: () => api.close(),
  };
}

const inventory = await loadInventory(a.inventory);
const hosts = selectHosts(inventory);
const forks = Number(a.forks);
const t0 = performance.now();
const report = await runAudit({
  inventory,
  hosts,
  forks,
  timeout: Number(a.timeout),
  env: process.env,
  deps: {
    connect: async (cfg, o) => {
      count(cfg.name).connections++;
      return countingTransport(await reachDeps.connect(cfg, o), keystoreListCommand(cfg));
    },
    api: (cfg, o) => countingApi(reachDeps.api(cfg, o)),
  },
});
const wallMs = performance.now() - t0;

const rows = hosts.map((h) => ({ host: h, ...count(h) }));
const stat = (k: keyof HostCount) => {
  const v = rows.map((r) => r[k]);
  return { min: Math.min(...v), max: Math.max(...v), total: v.reduce((s, x) => s + x, 0) };
};
process.stdout.write(
  `${JSON.stringify({
    forks,
    hosts: hosts.length,
    wall_ms: Math.round(wallMs),
    // resourceUsage().maxRSS is in KiB
    peak_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024),
    connections_per_host: stat('connections'),
    commands_per_host: stat('commands'),
    file_ops_per_host: stat('fileOps'),
    keystore_runs: { total: stat('keystore').total, hosts: rows.filter((r) => r.keystore > 0).map((r) => r.host) },
    rest_requests: restRequests,
    summary: report.summary,
    failed_checks: report.clusters.flatMap((c) =>
      c.checks.filter((k) => k.status === 'fail').map((k) => `${c.name}:${k.id}`),
    ),
  })}\n`,
);
