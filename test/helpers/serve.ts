/** smdoctor serve as users run it (the built binary), its JSON log lines, its /metrics, for the serve tests. */
import { execa, type ResultPromise } from 'execa';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMetrics } from './promtool.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Served {
  proc: ResultPromise;
  url: string;
  log: () => string;
}

/** One `cycle N` line of serve's JSON log. */
export interface CycleLine {
  n: number;
  full: boolean;
  unchanged: number;
}

/** Starts `smdoctor serve ARGS` as given and waits (a minute: a busy machine starts Node slowly) for its address. */
export async function serveProcess(args: string[]): Promise<Served> {
  const proc = execa(process.execPath, [join(root, 'bin/smdoctor.js'), 'serve', ...args], {
    cwd: root,
    reject: false,
    env: { NO_COLOR: '1' },
  });
  let log = '';
  proc.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  for (const deadline = Date.now() + 60_000; !/serving on (https?:\/\/[^\s"]+)/.test(log) && Date.now() < deadline;) {
    if (proc.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const url = /serving on (https?:\/\/[^\s"]+)/.exec(log)?.[1];
  if (!url) throw new Error(`serve did not start: ${log}`);
  return { proc, url, log: () => log };
}

/** Starts serve on any free port with --log-format json and waits for its address. */
export const startServe = (args: string[]): Promise<Served> =>
  serveProcess(['--listen', '127.0.0.1:0', '--log-format', 'json', ...args]);

export function cycleLines(s: Served): CycleLine[] {
  return s
    .log()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; full?: boolean; hosts_unchanged?: number })
    .filter((l) => /^cycle \d+$/.test(l.msg))
    .map((l) => ({ n: Number(l.msg.slice(6)), full: l.full === true, unchanged: l.hosts_unchanged ?? 0 }));
}

/** Waits (deadline: two minutes) for a cycle line that `ok` accepts, numbered above `after`. */
export async function waitCycle(s: Served, ok: (c: CycleLine) => boolean, after = 0): Promise<CycleLine> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    const c = cycleLines(s).find((x) => x.n > after && ok(x));
    if (c) return c;
    if (s.proc.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no such cycle after ${after}: ${s.log()}`);
}

/** One scrape: the cycles completed and a family's samples, from the same answer. */
export async function scrape(s: Served): Promise<{ cycles: number; metrics: ReturnType<typeof parseMetrics> }> {
  const metrics = parseMetrics(await (await fetch(`${s.url}/metrics`)).text());
  const cycles = Number(metrics.find((f) => f.name === 'smdoctor_cycles_total')?.metrics[0]?.value ?? NaN);
  return { cycles, metrics };
}
