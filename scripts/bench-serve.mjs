#!/usr/bin/env zx
// `npm run bench:serve`: smdoctor serve's steady cycles over kept connections, beside one audit (every cycle without
// them) and an OpenSSH ControlMaster floor (masters opened once, the batched read re-run over them each cycle), on the
// front-mode lab of bench:scale. Beside serve's: the lab's own CPU, the processes started on the nodes, how many
// cycles a change on a host takes to show in /metrics, and each target passed or not. Also serve's RSS over many
// cycles, its reconnects after a tenth of the hosts went away and came back, and a CPU profile of its steady cycles.
// Usage: npm run bench:serve -- [--hosts 1000] [--rtt 50] [--cycles 10] [--interval 1] [--forks 100]
//   [--warmup 1: cycles once all hosts are connected, before the steady ones] [--floor-cycles N (default --cycles)]
//   [--rss-cycles 1000: on the smallest lab at the first RTT] [--no-change]
//   [--no-drop] [--tools serve,audit,floor] [--cpu-prof DIR] [--quick: 100 hosts, 5 cycles] [--out FILE]
//   [--full-every N: serve's; default past the last counted cycle, so that the steady figures are of unchanged
//   hosts only (a full read of every host, serve's default every 60 cycles, is an audit's cost: see its column)]
import { performance } from 'node:perf_hooks';
import { $, argv, fs, os, path } from 'zx';
import { setFrontDown } from '../lab/dist/front/down.js';
import { scaleLab, clientCpuOf, cpuMsOf, pidsWith } from './bench-scale-lab.mjs';
import { SSH_OPTS, prepareFloor, runFloor, runSmdoctor } from './bench-scale-runs.mjs';
import { labCgroup, labCpuMs, verboseSshd } from './bench-serve-node.mjs';
import { cyclesUntil, startServe } from './bench-serve-proc.mjs';
import { changeOnHost, targets } from './bench-serve-targets.mjs';

$.verbose = false;
// the usage is the comment above: print it and start nothing (a full run takes 20 minutes and a 1,000-host lab)
if (argv.help || argv.h) {
  const text = await fs.readFile(new URL(import.meta.url), 'utf8');
  const usage = text.split('\n').filter((l) => /^\/\/ (Usage| {2})/.test(l));
  console.log(usage.map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
const root = path.resolve(import.meta.dirname, '..');
const bin = path.join(root, 'bin/smdoctor.js');
const ints = (v, d) =>
  String(v ?? d)
    .split(',')
    .filter(Boolean)
    .map(Number);
const quick = Boolean(argv.quick);
const hostsList = ints(argv.hosts, quick ? '100' : '1000');
const rtts = ints(argv.rtt, '50');
const cycles = Number(argv.cycles ?? (quick ? 5 : 10));
const warmup = Number(argv.warmup ?? 1);
const floorCycles = Number(argv['floor-cycles'] ?? cycles);
const interval = Number(argv.interval ?? 1);
const forks = Number(argv.forks ?? 100);
const rssCycles = Number(argv['rss-cycles'] ?? 0);
const fullEvery = Number(argv['full-every'] ?? warmup + cycles + rssCycles + 100);
const drop = argv.drop !== false && !quick;
const change = argv.change !== false;
const cpuProf = argv['cpu-prof'] ? path.resolve(String(argv['cpu-prof'])) : undefined;
const tools = String(argv.tools ?? 'serve,audit,floor').split(',');
const out = path.resolve(argv.out ?? path.join(root, '.lab', 'bench-serve.json'));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length ? (s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2) : null;
};
const load = () => Math.round(os.loadavg()[0] * 10) / 10;
const perCycle = (n, hosts) => Math.round((n / hosts / cycles) * 100) / 100;

/** The nodes' side over the steady cycles: the lab's CPU, and what started there (perf, and the sshd log's sessions). */
async function nodeWindow(lab, cg) {
  const cpu0 = await labCpuMs(lab);
  const mark = lab.sshdLog.mark();
  const perf = cg ? await cg.count() : null;
  return async () => {
    const counts = perf ? await perf() : null;
    const sessions = lab.sshdLog.sessionsSince(mark);
    return {
      cpu_ms: (await labCpuMs(lab)) - cpu0,
      processes: {
        sessions,
        command_sessions_per_cycle: (sessions.command ?? 0) / cycles,
        ...(counts
          ? { perf: { ...counts, execs_per_cycle: counts.execs / cycles, forks_per_cycle: counts.forks / cycles } }
          : {}),
      },
    };
  };
}

async function runServe(lab, { rss, cg }) {
  const hosts = lab.hosts.length;
  const serve = startServe(lab, { bin, root, interval, forks, cpuProf, fullEvery });
  const fig = {};
  try {
    const opening = await serve.next();
    fig.connect_cycle_s = opening.seconds;
    console.log(`    cycle 1 (connect): ${opening.seconds} s, ${opening.unreachable} unreachable`);
    // on a loaded machine handshakes outlast --timeout and land in later cycles: the steady cycles start once every
    // host is connected, after `--warmup` more (the first read over the new connections)
    const connecting = [
      opening,
      ...(opening.unreachable ? await cyclesUntil(serve, (c) => c.unreachable === 0, 60) : []),
    ];
    for (let i = 0; i < warmup; i++) connecting.push(await serve.next());
    const first = connecting.at(-1);
    fig.cycles_before_steady = connecting.map((c) => ({ seconds: c.seconds, unreachable: c.unreachable }));
    if (first.unreachable)
      console.error(`bench:serve: ${first.unreachable} hosts still unreachable at cycle ${first.n}`);
    const nodeEnd = await nodeWindow(lab, cg);
    const steady = [];
    for (let i = 0; i < cycles; i++) {
      const c = await serve.next();
      steady.push(c);
      if (c.n % 10 === 0) console.log(`    cycle ${c.n}: ${c.seconds} s, ${c.unreachable} unreachable, load ${c.load}`);
    }
    const node = await nodeEnd();
    const last = steady.at(-1);
    fig.cycles = steady.length;
    fig.wall_s = steady.map((c) => c.seconds);
    fig.wall_s_median = Math.round(median(fig.wall_s) * 1000) / 1000;
    fig.cpu_ms_per_host_cycle = perCycle(last.cpu_ms - first.cpu_ms, hosts);
    fig.lab_cpu_ms_per_host_cycle = perCycle(node.cpu_ms, hosts);
    // the lab's CPU as cores busy over the steady cycles' wall
    fig.lab_cores = Math.round((node.cpu_ms / (last.at - first.at)) * 100) / 100;
    fig.client_cores = Math.round(((last.cpu_ms - first.cpu_ms) / (last.at - first.at)) * 100) / 100;
    fig.node_processes = node.processes;
    fig.unreachable_max = Math.max(...steady.map((c) => c.unreachable));
    fig.load = [first.load, last.load];
    if (cpuProf) fig.profile = { dir: cpuProf, from_us: first.mono_us, to_us: last.mono_us, cycles };
    if (change) fig.change = await changeOnHost(lab, serve);
    let end = last;
    const rssAt = Object.fromEntries(steady.filter((c) => c.n % 10 === 0).map((c) => [c.n, c.rss_mib]));
    if (rss) {
      let peak = 0;
      while (end.n < rssCycles) {
        end = await serve.next();
        if (end.n >= 10) peak = Math.max(peak, end.rss_mib);
        if (end.n % 10 === 0) {
          rssAt[end.n] = end.rss_mib;
          console.log(`    cycle ${end.n}: RSS ${end.rss_mib} MiB, ${end.seconds} s, ${end.unreachable} unreachable`);
        }
      }
      rssAt[end.n] = end.rss_mib;
      const growth = (from) => (rssAt[from] ? Math.round((end.rss_mib / rssAt[from] - 1) * 1000) / 10 : undefined);
      fig.rss = {
        at: rssAt,
        end_cycle: end.n,
        peak_after_10: peak,
        growth_10_to_end: growth(10),
        growth_100_to_end: growth(100),
      };
    }
    fig.rss_mib_end = end.rss_mib;
    if (drop) {
      const names = lab.hosts.filter((_, i) => i % 10 === 0).map((h) => h.name);
      await setFrontDown(lab.dir, names);
      const tDown = performance.now();
      const down = await cyclesUntil(serve, (c) => c.at > tDown && c.unreachable >= names.length, 20);
      // two more cycles down: backoff grows while they stay away
      down.push(await serve.next(), await serve.next());
      await setFrontDown(lab.dir, []);
      const tUp = performance.now();
      const back = await cyclesUntil(serve, (c) => c.unreachable === 0, 60);
      fig.drop = {
        hosts_down: names.length,
        cycles_to_see_all_down: down.findIndex((c) => c.unreachable >= names.length) + 1,
        cycles_down: down.length,
        unreachable_while_down: down.map((c) => c.unreachable),
        cycles_until_all_back: back.at(-1).unreachable === 0 ? back.length : null,
        seconds_until_all_back: Math.round((back.at(-1).at - tUp) / 100) / 10,
        unreachable_after: back.map((c) => c.unreachable),
      };
    }
  } finally {
    fig.exit = await serve.stop();
    fig.failures = serve.failures.slice(-5);
  }
  return fig;
}

/** Masters opened once (ControlPersist), then `cycles` runs of the floor over them; the masters' CPU counted per cycle. */
async function runMasterFloor(lab) {
  const cp = await fs.mkdtemp(path.join(os.tmpdir(), 'bsv-'));
  const mux = ['-o', `ControlPath=${cp}/%C`];
  try {
    const floor = await prepareFloor(lab, { sshOpts: [...mux, '-o', 'ControlMaster=no'], name: 'floor-cm' });
    const t0 = performance.now();
    const opened = await lab.track(
      () =>
        $({ nothrow: true, input: lab.hosts.map((h) => `root@${h.ip}\n`).join('') })`xargs -P ${forks} -I{} ssh ${[
          ...SSH_OPTS(lab),
          ...mux,
          '-o',
          'ControlMaster=yes',
          '-o',
          'ControlPersist=1800',
        ]} -fN {}`,
    );
    const openS = Math.round(performance.now() - t0) / 1000;
    const masters = await pidsWith(cp);
    const cpuOfMasters = () => masters.reduce((s, p) => s + cpuMsOf(p), 0);
    if (masters.length !== lab.hosts.length)
      console.error(`bench:serve: ${masters.length}/${lab.hosts.length} masters (${opened.stderr.slice(-300)})`);
    const runs = [];
    for (let i = 0; i < floorCycles; i++) {
      const m0 = cpuOfMasters();
      const l0 = await labCpuMs(lab);
      const r = await runFloor(lab, floor, forks, `cm-${i}`);
      const cpu = r.cpu_ms + cpuOfMasters() - m0;
      runs.push({ wall_ms: r.wall_ms, cpu_ms: cpu, lab_cpu_ms: (await labCpuMs(lab)) - l0, ok: r.ok, why: r.why });
    }
    return {
      masters: masters.length,
      open_s: openS,
      wall_s_median: median(runs.map((r) => r.wall_ms)) / 1000,
      cpu_ms_per_host_cycle: Math.round((median(runs.map((r) => r.cpu_ms)) / lab.hosts.length) * 100) / 100,
      lab_cpu_ms_per_host_cycle: Math.round((median(runs.map((r) => r.lab_cpu_ms)) / lab.hosts.length) * 100) / 100,
      failed: runs.filter((r) => !r.ok).map((r) => r.why),
      runs,
    };
  } finally {
    await clientCpuOf(cp);
    await fs.remove(cp);
  }
}

const result = {
  date: new Date().toISOString(),
  machine: { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, node: process.version },
  cycles,
  floor_cycles: floorCycles,
  interval,
  forks,
  cells: [],
};
let bad = 0;
for (const hosts of hostsList) {
  const lab = await scaleLab(root, bin, hosts);
  let cg = null;
  try {
    lab.sshdLog = await verboseSshd(lab);
    cg = await labCgroup(lab);
    console.log(`lab: ${hosts} hosts in ${lab.clusters.length} clusters (front mode), load ${load()}`);
    for (const [k, rtt] of rtts.entries()) {
      await lab.setRtt(rtt);
      const cell = { hosts, rtt_ms: rtt, load_start: load() };
      result.cells.push(cell);
      const rss = hosts === Math.min(...hostsList) && k === 0 && rssCycles > cycles;
      if (tools.includes('serve')) {
        cell.serve = await runServe(lab, { rss, cg });
        const s = cell.serve;
        console.log(
          `  ${hosts} hosts, RTT ${rtt} ms, serve: connect ${s.connect_cycle_s} s, steady ${s.wall_s_median} s, ${s.cpu_ms_per_host_cycle} ms CPU/host/cycle (lab ${s.lab_cpu_ms_per_host_cycle} ms), RSS ${s.rss_mib_end} MiB${s.drop ? `, back after ${s.drop.cycles_until_all_back} cycles (${s.drop.seconds_until_all_back} s)` : ''}`,
        );
        const p = s.node_processes;
        console.log(
          `    on the nodes per steady cycle: ${p.command_sessions_per_cycle} command sessions${p.perf ? `, ${p.perf.execs_per_cycle} execs, ${p.perf.forks_per_cycle} new tasks` : ''}; lab ${s.lab_cores} cores busy, serve ${s.client_cores}`,
        );
        if (s.change?.shown)
          console.log(
            `    a change on a host: in /metrics at the end of cycle ${s.change.shown.cycles_after_change} after it (${s.change.shown.seconds} s), its undoing ${s.change.back.cycles_after_change} (${s.change.back.seconds} s)`,
          );
        else if (s.change) console.log(`    a change on a host: not measured (${s.change.skipped})`);
        if (s.unreachable_max || (s.drop && s.drop.cycles_until_all_back === null)) bad++;
      }
      if (tools.includes('audit')) {
        const l0 = await labCpuMs(lab);
        const a = await runSmdoctor(lab, forks, `${hosts}-${rtt}`);
        const labMs = (await labCpuMs(lab)) - l0;
        const { r: _r, ...audit } = a;
        const perHost = (ms) => Math.round((ms / hosts) * 100) / 100;
        cell.audit = { ...audit, cpu_ms_per_host: perHost(a.cpu_ms), lab_cpu_ms_per_host: perHost(labMs) };
        console.log(
          `  audit: ${a.wall_ms / 1000} s, ${cell.audit.cpu_ms_per_host} ms CPU/host${a.ok ? '' : ` FAILED ${a.why}`}`,
        );
        if (!a.ok) bad++;
      }
      if (tools.includes('floor')) {
        cell.floor = await runMasterFloor(lab);
        const f = cell.floor;
        console.log(
          `  ControlMaster floor: masters ${f.masters} in ${f.open_s} s, cycle ${f.wall_s_median} s, ${f.cpu_ms_per_host_cycle} ms CPU/host/cycle`,
        );
        if (f.failed.length) bad++;
      }
      cell.load_end = load();
      await fs.outputJson(out, result, { spaces: 2 });
    }
  } finally {
    await lab.down();
    await cg?.remove();
  }
}
const fixed = (x, d, w) => (x === undefined || x === null ? '-' : x.toFixed(d)).padStart(w);
console.log('\nCPU per host (per cycle): client / lab');
console.log('hosts  RTT  serve cycle     CPU/host/cycle   audit       CPU/host   floor cycle     CPU/host/cycle');
for (const c of result.cells) {
  const both = (x, y) => `${fixed(x, 2, 6)} /${fixed(y, 2, 6)} ms`;
  console.log(
    `${String(c.hosts).padStart(5)} ${String(c.rtt_ms).padStart(4)}  ${fixed(c.serve?.wall_s_median, 2, 9)} s  ${both(c.serve?.cpu_ms_per_host_cycle, c.serve?.lab_cpu_ms_per_host_cycle)} ${fixed(c.audit && c.audit.wall_ms / 1000, 1, 6)} s ${both(c.audit?.cpu_ms_per_host, c.audit?.lab_cpu_ms_per_host)} ${fixed(c.floor?.wall_s_median, 2, 9)} s  ${both(c.floor?.cpu_ms_per_host_cycle, c.floor?.lab_cpu_ms_per_host_cycle)}`,
  );
}
result.targets = result.cells.flatMap((c) => (c.serve ? targets(c) : []));
console.log('\ntargets (set at 1,000 hosts × 50 ms, --forks 100):');
for (const t of result.targets) console.log(`  ${t.verdict.padEnd(12)} ${t.target} [${t.at}]: ${t.figure}`);
for (const c of result.cells.filter((x) => x.serve?.profile)) {
  const p = c.serve.profile;
  console.log(
    `\nCPU profile in ${path.relative(process.cwd(), p.dir) || p.dir}; its steady cycles' top frames:\n  node scripts/cpu-prof-top.mjs ${path.relative(process.cwd(), p.dir) || p.dir} --from ${p.from_us} --to ${p.to_us}`,
  );
}
await fs.outputJson(out, result, { spaces: 2 });
console.log(`figures written to ${path.relative(process.cwd(), out) || out}`);
if (bad) process.exitCode = 1;
