#!/usr/bin/env zx
// `npm run bench`: audits a fleet lab (real sshds + API listeners on loopback) through the real CLI
// under several --forks values; wall time, peak RSS, and counted connections/commands/JVM starts.
// Usage: npm run bench -- [--clusters 6] [--nodes 5] [--forks 1,5,20] [--runs 3] [--tool-delay 1000] [--out FILE]
import { performance } from 'node:perf_hooks';
import { $, argv, fs, os, path } from 'zx';
import { interruptible } from './bench-teardown.mjs';

$.verbose = false;
const root = path.resolve(import.meta.dirname, '..');
const bin = path.join(root, 'bin/smdoctor.js');
const tsx = path.join(root, 'node_modules/.bin/tsx');
const int = (v, d, name) => {
  const n = Number(v ?? d);
  if (!Number.isInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got '${v}'`);
  return n;
};
// 6 clusters: the healthy one plus one per cause, so the keystore path (a master with scheduler plugins, c5) is exercised.
const clusters = int(argv.clusters, 6, 'clusters');
const nodes = int(argv.nodes, 5, 'nodes');
const runs = Math.max(1, int(argv.runs, 3, 'runs'));
const toolDelay = int(argv['tool-delay'], 1000, 'tool-delay');
const forksList = String(argv.forks ?? '1,5,20')
  .split(',')
  .map((f) => int(f, 1, 'forks'))
  .filter((f) => f > 0);
const out = path.resolve(argv.out ?? path.join(root, '.lab', 'bench-results.json'));
const hasTime = await fs.pathExists('/usr/bin/time');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const labDir = await fs.mkdtemp(path.join(os.tmpdir(), 'smdoctor-bench-'));
// Ctrl-C or kill: the child in flight ends, and the lab is still taken down
const track = interruptible(() => stopLab());
const smd = (args, env = {}) =>
  track(() => $({ cwd: root, nothrow: true, env: { ...process.env, ...env } })`node ${bin} ${args}`);

let down = null;
const stopLab = () =>
  (down ??= (async () => {
    // lab down stops its processes one by one, each waiting for the reaper; ending them all at once first keeps teardown short
    await endLabProcesses(false);
    await $({ cwd: root, nothrow: true })`node ${bin} lab down --dir ${labDir}`;
    await endLabProcesses(true);
    await fs.remove(labDir);
  })());

/** The lab's live sshds and daemon, known by the lab dir in their command line (a zombie's command line is empty). */
async function labPids() {
  const pids = [];
  for (const p of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(p) || Number(p) === process.pid) continue;
    const cmd = await fs.readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes(labDir) && (cmd.includes('sshd_config') || cmd.includes('daemon.ts'))) pids.push(Number(p));
  }
  return pids;
}

/** SIGTERM to all of them, SIGKILL after 3 s; `report` says they should already have been gone. */
async function endLabProcesses(report) {
  let pids = await labPids();
  if (report && pids.length) console.error(`bench: ending ${pids.length} leftover lab process(es): ${pids.join(' ')}`);
  const found = pids.length;
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
  for (let i = 0; i < 150 && pids.length; i++) {
    await new Promise((r) => setTimeout(r, 20));
    pids = await labPids();
  }
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  return found;
}

/** One CLI audit: wall time measured here, peak RSS from GNU time (-o keeps it apart from smdoctor's stderr). */
let badRuns = 0;
async function cliAudit(inv, forks, i) {
  const report = path.join(labDir, `report-${forks}-${i}.json`);
  const tfile = path.join(labDir, `time-${forks}-${i}.txt`);
  const args = ['audit', '-i', inv, '--format', 'json', '-o', report, '--forks', String(forks)];
  const t0 = performance.now();
  const r = hasTime
    ? await track(() => $({ cwd: root, nothrow: true })`/usr/bin/time -f %M -o ${tfile} node ${bin} ${args}`)
    : await smd(args);
  const wall = performance.now() - t0;
  const rssKiB = hasTime ? Number((await fs.readFile(tfile, 'utf8')).trim().split('\n').pop()) : null;
  const summary = (await fs.readJson(report).catch(() => ({}))).summary ?? null;
  if (r.exitCode !== 1 || summary?.unreachable !== 0) {
    badRuns++;
    console.error(
      `bench: audit --forks ${forks} exited ${r.exitCode} (expected 1: findings); summary ${JSON.stringify(summary)}\n${r.stderr.slice(-800)}`,
    );
  }
  return {
    wall_ms: Math.round(wall),
    peak_rss_mib: rssKiB === null ? null : Math.round(rssKiB / 1024),
    exit: r.exitCode,
    summary,
  };
}

const result = {
  date: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? '?',
    mem_gib: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  },
  lab: { clusters, nodes_per_cluster: nodes, hosts: 0, tool_delay_ms: toolDelay },
  runs,
  cli_startup_ms: null,
  results: [],
};

try {
  const up = await smd(['lab', 'up', '--dir', labDir, '--scenario', 'fleet'], {
    SMDOCTOR_LAB_CLUSTERS: String(clusters),
    SMDOCTOR_LAB_NODES: String(nodes),
  });
  if (up.exitCode !== 0) throw new Error(`lab up failed (${up.exitCode}): ${up.stderr}`);
  const inv = up.stdout.trim().split('\n').pop();
  // the tools read this file on every run: the JVM start of the real keystore/plugin tools
  await fs.writeFile(path.join(labDir, 'tool-delay-ms'), `${toolDelay}\n`);
  const status = JSON.parse((await smd(['lab', 'status', '--dir', labDir, '--format', 'json'])).stdout);
  const ips = status.clusters.flatMap((c) => [...c.nodes, ...c.web_hosts].map((n) => n.ip));
  if (!ips.every((ip) => ip.startsWith('127.'))) throw new Error(`lab address outside 127.0.0.0/8: ${ips.join(' ')}`);
  result.lab.hosts = status.clusters.reduce((n, c) => n + c.nodes.length, 0);
  console.log(
    `lab: ${clusters} clusters × ${nodes} nodes = ${result.lab.hosts} sshd + API listeners on loopback; tool delay ${toolDelay} ms; ${os.cpus().length} cores`,
  );

  const startup = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await smd(['--version']);
    startup.push(performance.now() - t0);
  }
  result.cli_startup_ms = Math.round(median(startup));
  await cliAudit(inv, forksList.at(-1), 'warmup'); // fills tsx's transform cache; not recorded

  for (const forks of forksList) {
    const cli = [];
    for (let i = 0; i < runs; i++) cli.push(await cliAudit(inv, forks, i));
    const ip = await track(
      () =>
        $({
          cwd: root,
          nothrow: true,
        })`${tsx} ${path.join(root, 'scripts/bench-audit.ts')} --inventory ${inv} --forks ${forks}`,
    );
    if (ip.exitCode !== 0) throw new Error(`bench-audit failed: ${ip.stderr}`);
    const counted = JSON.parse(ip.stdout);
    const walls = cli.map((c) => c.wall_ms);
    const rss = cli.map((c) => c.peak_rss_mib).filter((x) => x !== null);
    result.results.push({
      forks,
      cli: {
        wall_ms: walls,
        median_ms: Math.round(median(walls)),
        min_ms: Math.min(...walls),
        peak_rss_mib: rss.length ? Math.max(...rss) : null,
        exit_codes: cli.map((c) => c.exit),
      },
      in_process: counted,
    });
    console.log(
      `  forks ${String(forks).padStart(2)}: CLI median ${(median(walls) / 1000).toFixed(2)} s (${runs} runs), in-process ${(counted.wall_ms / 1000).toFixed(2)} s`,
    );
  }
} finally {
  await stopLab();
}

const rows = [
  [
    'forks',
    'CLI median s',
    'CLI min s',
    'CLI peak RSS MiB',
    'in-proc s',
    'in-proc RSS MiB',
    'SSH conn/host',
    'cmds/host',
    'JVM starts',
    'REST reqs',
    'failed checks',
  ],
];
for (const r of result.results) {
  const c = r.in_process;
  const span = (s) => (s.min === s.max ? String(s.min) : `${s.min}–${s.max}`);
  rows.push([
    String(r.forks),
    (r.cli.median_ms / 1000).toFixed(2),
    (r.cli.min_ms / 1000).toFixed(2),
    String(r.cli.peak_rss_mib ?? '-'),
    (c.wall_ms / 1000).toFixed(2),
    String(c.peak_rss_mib),
    span(c.connections_per_host),
    span(c.commands_per_host),
    String(c.keystore_runs.total),
    String(c.rest_requests),
    String(c.summary.checks_failed),
  ]);
}
const w = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
console.log(
  `\n${result.lab.hosts} hosts in ${clusters} clusters, ${runs} CLI runs per forks value; CLI start-up alone ${(result.cli_startup_ms / 1000).toFixed(2)} s`,
);
for (const r of rows) console.log(r.map((x, i) => (i ? x.padStart(w[i]) : x.padEnd(w[i]))).join('  '));
const jvm = result.results[0]?.in_process.keystore_runs;
if (jvm) console.log(`JVM (keystore tool) starts on: ${jvm.hosts.join(', ') || 'none'}`);
await fs.outputJson(out, result, { spaces: 2 });
console.log(`figures written to ${path.relative(process.cwd(), out) || out}`);
// figures from failed audits or a lab that outlived its teardown are not figures
if ((await endLabProcesses(true)) || badRuns) process.exitCode = 1;
