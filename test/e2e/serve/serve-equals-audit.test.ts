/**
 * Whatever changes between cycles, serve's report is the one a fresh audit of the same lab writes (but for its
 * timestamp): random edits of configs, plugins and keystores, and a host going away and back, each followed by a
 * comparison. The seed is printed; SMDOCTOR_SEED=N replays one run.
 */
import t, { type Test as Tap } from 'tap';
import { execa } from 'execa';
import { spawn } from 'node:child_process';
import { appendFile, mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLab, type Lab } from '../../../lab/src/index.ts';
import { parseReport } from '../../helpers/schema.ts';
import { cycleLines, startServe, waitCycle, type Served } from '../../helpers/serve.ts';
import type { Report } from '../../../src/model/index.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const SEED = Number(process.env.SMDOCTOR_SEED ?? Date.now() % 1_000_000);
/** mulberry32: the same seed, the same edits. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(SEED);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;

let lab: Lab;
const restarted: number[] = [];
t.before(async () => {
  lab = await startLab({ scenario: 'broken' });
});
t.teardown(async () => {
  for (const pid of restarted) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
  await lab?.stop();
});

const withoutTime = (r: Report) => ({ ...r, generated_at: '' });
const served = async (s: Served) => parseReport<Report>(await (await fetch(`${s.url}/report.json`)).text());
async function audited(): Promise<Report> {
  const r = await execa(
    process.execPath,
    [join(root, 'bin/smdoctor.js'), 'audit', '-i', lab.inventoryPath, '--format', 'json', '--timeout', '20'],
    { cwd: root, reject: false, env: { NO_COLOR: '1' } },
  );
  return parseReport<Report>(r.stdout);
}
const lastCycle = (s: Served) => cycleLines(s).at(-1)?.n ?? 0;

/** The node's sshd and its sessions stopped (serve's kept connection with them), then started again as the lab did. */
async function awayAndBack(t: Tap, s: Served, node: string): Promise<void> {
  const dir = join(lab.dir, 'nodes', node, 'sshd');
  const pid = Number((await readFile(join(dir, 'sshd.pid'), 'utf8')).trim());
  const children = (await execa('pgrep', ['-P', String(pid)], { reject: false })).stdout.split('\n').filter(Boolean);
  for (const p of [...children.map(Number), pid]) process.kill(p, 'SIGTERM');
  const away = await waitCycle(s, () => true, lastCycle(s) + 1);
  const r = await served(s);
  t.ok(away.n > 0 && r.clusters[0]!.nodes.some((n) => n.host === node && !n.reachable), `${node} went away`);
  const log = await open(join(dir, 'sshd.log'), 'a');
  const child = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', log.fd, log.fd],
  });
  await log.close();
  restarted.push(child.pid!);
  await writeFile(join(dir, 'sshd.pid'), `${child.pid}\n`);
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const c = await waitCycle(s, () => true, lastCycle(s));
    if ((await served(s)).clusters[0]!.nodes.every((n) => n.host === null || n.reachable) && c) return;
  }
  throw new Error(`${node} did not come back: ${s.log()}`);
}

t.test(`serve's report equals a fresh audit after random edits (seed ${SEED})`, async (t) => {
  t.comment(`seed ${SEED} (SMDOCTOR_SEED=${SEED} replays it)`);
  const s = await startServe(['-i', lab.inventoryPath, '--interval', '1', '--timeout', '20', '--full-every', '1000']);
  t.teardown(() => void s.proc.kill('SIGKILL'));
  await waitCycle(s, (c) => !c.full && c.unchanged > 0);
  const first = await served(s);
  const where = (host: string) => first.clusters[0]!.nodes.find((n) => n.host === host)!.layout!;
  const hosts = lab.nodes.map((n) => n.name).filter((n) => n !== 'web1');
  const done: string[] = [];
  const edits: Array<() => Promise<string>> = [
    async () => {
      const h = pick(hosts);
      const yml = join(where(h).engine_config.path, 'opensearch.yml');
      const text = await readFile(yml, 'utf8');
      const next = text.includes('node_with_sme: true')
        ? text.replace('node_with_sme: true', 'node_with_sme: false')
        : text.replace('node_with_sme: false', 'node_with_sme: true');
      await writeFile(yml, next);
      return `config of ${h}`;
    },
    async () => {
      const h = pick(hosts);
      const dir = join(where(h).engine_home.path, 'plugins', `sm-job-scheduler-extra-${done.length}`);
      if (random() < 0.5) {
        await mkdir(dir, { recursive: true });
        await writeFile(
          join(dir, 'plugin-descriptor.properties'),
          `name=${pick(['sm-job-scheduler', 'sm-extra'])}\nversion=2.11.0\nopensearch.version=2.11.0\n`,
        );
        return `plugin added on ${h}`;
      }
      const own = join(where(h).engine_home.path, 'plugins', 'sm-sigma');
      await rm(own, { recursive: true, force: true });
      return `plugin sm-sigma removed from ${h}`;
    },
    async () => {
      const h = pick(hosts);
      await appendFile(join(where(h).engine_config.path, 'opensearch.keystore'), `extra.entry.${done.length}=x\n`);
      return `keystore of ${h}`;
    },
    async () => {
      const h = pick(hosts);
      await awayAndBack(t, s, h);
      return `${h} away and back`;
    },
  ];
  // each kind once in a random order, then two more of the quick ones
  const order = edits
    .map((e) => [random(), e] as const)
    .sort((a, b) => a[0] - b[0])
    .map(([, e]) => e);
  for (const step of [...order, pick(edits.slice(0, 3)), pick(edits.slice(0, 3))]) {
    const what = await step();
    done.push(what);
    // the cycle under way may have asked before the edit: the one after it has seen it
    await waitCycle(s, () => true, lastCycle(s) + 1);
    const a = await audited();
    const r = await served(s);
    t.same(withoutTime(r), withoutTime(a), `after ${done.join(', ')} (seed ${SEED})`);
  }
  t.ok(
    cycleLines(s).some((c) => !c.full && c.unchanged === lab.nodes.length),
    'some cycles kept every host unread',
  );
  s.proc.kill('SIGTERM');
  t.equal((await s.proc).exitCode, 0);
});
