// smdoctor serve as `npm run bench:serve` runs it: its cycles read from its JSON log as they end, each with the
// process's CPU and RSS at that moment, and the address it serves on.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { os, path } from 'zx';
import { cpuMsOf } from './bench-scale-lab.mjs';

const load = () => Math.round(os.loadavg()[0] * 10) / 10;
const rssMibOf = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 102.4) / 10 : null;
};
/** CLOCK_MONOTONIC in µs: the clock of V8's CPU profiles, so a profile can be cut to the steady cycles. */
export const monoUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * smdoctor serve on the lab. `cpuProf`: a folder for `node --cpu-prof` (the profile is written when serve exits).
 * next() resolves to the next cycle to end; url() to where it serves.
 */
export function startServe(lab, { bin, root, interval, forks, cpuProf, fullEvery }) {
  const node = cpuProf ? ['--cpu-prof', '--cpu-prof-dir', cpuProf] : [];
  const args = ['serve', '-i', lab.inventory, '--listen', '127.0.0.1:0', '--interval', String(interval)];
  if (fullEvery) args.push('--full-every', String(fullEvery));
  const proc = spawn(process.execPath, [...node, bin, ...args, '--log-format', 'json', '--forks', String(forks)], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise((r) => proc.once('exit', (code, sig) => r(code ?? sig)));
  const tracked = lab.track(() => Object.assign(exited, { kill: async () => proc.kill('SIGKILL') }));
  const queue = [];
  const waiting = [];
  const failures = [];
  let serving;
  const served = new Promise((r) => (serving = r));
  createInterface({ input: proc.stderr }).on('line', (line) => {
    let e;
    try {
      e = JSON.parse(line);
    } catch {
      return failures.push(line);
    }
    const on = /^serving on (http:\/\/127\.0\.0\.1:\d+)$/.exec(e.msg ?? '');
    if (on) serving(on[1]);
    if (e.msg?.startsWith('cycle failed')) failures.push(e.msg);
    if (!/^cycle \d+$/.test(e.msg ?? '')) return;
    const c = {
      n: Number(e.msg.slice(6)),
      seconds: e.seconds,
      unreachable: e.unreachable,
      at: performance.now(),
      mono_us: monoUs(),
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
  return { proc, next, stop, failures, url: () => served, profileDir: cpuProf && path.resolve(cpuProf) };
}

/** Cycles until `done(cycle)`, at most `max`; the cycles seen. */
export async function cyclesUntil(serve, done, max) {
  const seen = [];
  while (seen.length < max) {
    const c = await serve.next();
    seen.push(c);
    if (done(c)) break;
  }
  return seen;
}
