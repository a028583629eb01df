#!/usr/bin/env zx
// `npm run bench:serve`: smdoctor serve's steady cycles over kept connections, beside one audit (every cycle without
// them) and an OpenSSH ControlMaster floor (masters opened once, the batched read re-run over them each cycle), on the
// front-mode lab of bench:scale. Also serve's RSS over many cycles and its reconnects after a tenth of the hosts
// went away and came back.
// Usage: npm run bench:serve -- [--hosts 100,1000] [--rtt 0,50] [--cycles 10] [--interval 1] [--forks 20]
//   [--rss-cycles 300: on the smallest lab at the first RTT] [--no-drop] [--tools serve,audit,floor] [--out FILE]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { $, argv, fs, os, path } from 'zx';
import { setFrontDown } from '../lab/dist/front/down.js';
import { scaleLab, clientCpuOf, cpuMsOf, pidsWith } from './bench-scale-lab.mjs';
import { SSH_OPTS, prepareFloor, runFloor, runSmdoctor } from './bench-scale-runs.mjs';

$.verbose = false;
const root = path.resolve(import.meta.dirname, '..');
const bin = path.join(root, 'bin/smdoctor.js');
const ints = (v, d) =>
  String(v ?? d)
    .split(',')
    .filter(Boolean)
    .map(Number);
const hostsList = ints(argv.hosts, '100,1000');
const rtts = ints(argv.rtt, '0,50');
const cycles = Number(argv.cycles ?? 10);
const interval = Number(argv.interval ?? 1);
const forks = Number(argv.forks ?? 20);
const rssCycles = Number(argv['rss-cycles'] ?? 300);
const drop = argv.drop !== false;
const tools = String(argv.tools ?? 'serve,audit,floor').split(',');
const out = path.resolve(argv.out ?? path.join(root, '.lab', 'bench-serve.json'));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length ? (s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2) : null;
};
const load = () => Math.round(os.loadavg()[0] * 10) / 10;
const rssMibOf = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 102.4) / 10 : null;
};

/** smdoctor serve on the lab: its cycles as they end, each with the process's CPU and RSS at that moment. */
function startServe(lab) {
  const proc = spawn(
    process.execPath,
    [bin, 'serve', '-i', lab.inventory, '--listen', '127.0.0.1:0', '--interval', String(interval)].concat([
      '--log-format',
      'json',
      '--forks',
      String(forks),
    ]),
    { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise((r) => proc.once('exit', (code, sig) => r(code ?? sig)));
  const tracked = lab.track(() => Object.assign(exited, { kill: async () => proc.kill('SIGKILL') }));
  const queue = [];
  const waiting = [];
  const failures = [];
  createInterface({ input: proc.stderr }).on('line', (line) => {
    let e;
    try {
      e = JSON.parse(line);
    } catch {
      return failures.push(line);
    }
    if (e.msg?.startsWith('cycle failed')) failures.push(e.msg);
    if (!/^cycle \d+$/.test(e.msg ?? '')) return;
    const c = {
      n: Number(e.msg.slice(6)),
      seconds: e.seconds,
      unreachable: e.unreachable,
      at: performance.now(),
      cpu_ms: cpuMsOf(proc.pid),
      rss_mib: rssMibOf(proc.pid),
      load: load(),
    };
    (waiting.shift() ?? ((x) => queue.push(x)))(c);
  });
  const next = (timeoutMs = 900_000) =>
    queue.length
      ? Promise.resolve(queue.shift())
      : new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no cycle within ${timeoutMs} ms`)), timeoutMs);
          waiting.push((c) => {
            clearTimeout(timer);
            resolve(c);
          });
          exited.then((code) => reject(new Error(`serve exited (${code}): ${failures.slice(-3).join(' | ')}`)));
        });
  const stop = async () => {
    proc.kill('SIGTERM');
    return tracked;
  };
  return { proc, next, stop, failures };
}

/** Cycles until `done(cycle)`, at most `max`; the cycles seen. */
async function cyclesUntil(serve, done, max) {
  const seen = [];
  while (seen.length < max) {
    const c = await serve.next();
    seen.push(c);
    if (done(c)) break;
  }
  return seen;
}

async function runServe(lab, { rss }) {
  const hosts = lab.hosts.length;
  const serve = startServe(lab);
  const fig = {};
  try {
    const first = await serve.next();
    fig.connect_cycle_s = first.seconds;
    const steady = [];
    for (let i = 0; i < cycles; i++) steady.push(await serve.next());
    const last = steady.at(-1);
    fig.cycles = steady.length;
    fig.wall_s = steady.map((c) => c.seconds);
    fig.wall_s_median = median(fig.wall_s);
    fig.cpu_ms_per_host_cycle = Math.round(((last.cpu_ms - first.cpu_ms) / hosts / cycles) * 100) / 100;
    fig.unreachable_max = Math.max(...steady.map((c) => c.unreachable));
    fig.load = [first.load, last.load];
    let end = last;
    const rssAt = Object.fromEntries(steady.filter((c) => c.n === 10).map((c) => [c.n, c.rss_mib]));
    if (rss) {
      // RSS at cycle 10 and at the last one, and the highest after 10
      let peak = Math.max(0, ...steady.filter((c) => c.n >= 10).map((c) => c.rss_mib));
      while (end.n < rssCycles) {
        end = await serve.next();
        peak = Math.max(peak, end.rss_mib);
        if (end.n % 10 === 0) rssAt[end.n] = end.rss_mib;
        if (end.n % 50 === 0) console.log(`    cycle ${end.n}: RSS ${end.rss_mib} MiB, ${end.seconds} s`);
      }
      rssAt[end.n] = end.rss_mib;
      fig.rss = {
        at: rssAt,
        peak_after_10: peak,
        growth_10_to_end: Math.round((end.rss_mib / rssAt[10] - 1) * 1000) / 10,
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
    for (let i = 0; i < cycles; i++) {
      const m0 = cpuOfMasters();
      const r = await runFloor(lab, floor, forks, `cm-${i}`);
      runs.push({ wall_ms: r.wall_ms, cpu_ms: r.cpu_ms + cpuOfMasters() - m0, ok: r.ok, why: r.why, load: r.load });
    }
    return {
      masters: masters.length,
      open_s: openS,
      wall_s_median: median(runs.map((r) => r.wall_ms)) / 1000,
      cpu_ms_per_host_cycle: Math.round((median(runs.map((r) => r.cpu_ms)) / lab.hosts.length) * 100) / 100,
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
  interval,
  forks,
  cells: [],
};
let bad = 0;
for (const hosts of hostsList) {
  const lab = await scaleLab(root, bin, hosts);
  try {
    console.log(`lab: ${hosts} hosts in ${lab.clusters.length} clusters (front mode), load ${load()}`);
    for (const [k, rtt] of rtts.entries()) {
      await lab.setRtt(rtt);
      const cell = { hosts, rtt_ms: rtt, load_start: load() };
      result.cells.push(cell);
      const rss = hosts === Math.min(...hostsList) && k === 0 && rssCycles > cycles;
      if (tools.includes('serve')) {
        cell.serve = await runServe(lab, { rss });
        const s = cell.serve;
        console.log(
          `  ${hosts} hosts, RTT ${rtt} ms, serve: connect ${s.connect_cycle_s} s, steady ${s.wall_s_median} s, ${s.cpu_ms_per_host_cycle} ms CPU/host/cycle, RSS ${s.rss_mib_end} MiB${s.drop ? `, back after ${s.drop.cycles_until_all_back} cycles (${s.drop.seconds_until_all_back} s)` : ''}`,
        );
        if (s.unreachable_max || (s.drop && s.drop.cycles_until_all_back === null)) bad++;
      }
      if (tools.includes('audit')) {
        const a = await runSmdoctor(lab, forks, `${hosts}-${rtt}`);
        const { r: _r, ...audit } = a;
        cell.audit = { ...audit, cpu_ms_per_host: Math.round((a.cpu_ms / hosts) * 100) / 100 };
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
  }
}
const fixed = (x, d, w) => (x === undefined ? '-' : x.toFixed(d)).padStart(w);
console.log('\nhosts  RTT  serve cycle  CPU/host/cycle  audit   CPU/host  floor cycle  CPU/host/cycle');
for (const c of result.cells)
  console.log(
    `${String(c.hosts).padStart(5)} ${String(c.rtt_ms).padStart(4)}  ${fixed(c.serve?.wall_s_median, 2, 9)} s ${fixed(c.serve?.cpu_ms_per_host_cycle, 2, 11)} ms ${fixed(c.audit && c.audit.wall_ms / 1000, 1, 6)} s ${fixed(c.audit?.cpu_ms_per_host, 1, 6)} ms ${fixed(c.floor?.wall_s_median, 2, 9)} s ${fixed(c.floor?.cpu_ms_per_host_cycle, 2, 11)} ms`,
  );
await fs.outputJson(out, result, { spaces: 2 });
console.log(`figures written to ${path.relative(process.cwd(), out) || out}`);
if (bad) process.exitCode = 1;
