/**
 * serve's steady cycle on the lab: an unchanged host is asked over its kept connection's SFTP session whether anything
 * changed, and no program starts on it (counted in the nodes' sshd logs at DEBUG1); an edit shows in /metrics within
 * one cycle; an edit that keeps size and mtime (`touch -r`) waits for the --full-every cycle; a config that is a
 * symlink is followed: its target's edit shows within one cycle though the link is unchanged.
 */
import t from 'tap';
import { execa } from 'execa';
import { readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startLab, type Lab } from '../../../lab/src/index.ts';
import { parseReport } from '../../helpers/schema.ts';
import { cycleLines, scrape, startServe, waitCycle, type Served } from '../../helpers/serve.ts';
import type { Report } from '../../../src/model/index.ts';

let lab: Lab;
t.before(async () => {
  lab = await startLab({ scenario: 'broken', sshdLogLevel: 'DEBUG1' });
});
t.teardown(() => lab?.stop());

const sshdLog = (node: string) => join(lab.dir, 'nodes', node, 'sshd', 'sshd.log');
const logSizes = () => Promise.all(lab.nodes.map(async (n) => (await stat(sshdLog(n.name))).size));
/** The sessions' program and subsystem requests the nodes' sshds logged past `from` (byte offsets, node by node). */
async function requests(from: number[]): Promise<string[]> {
  const all = await Promise.all(
    lab.nodes.map(async (n, i) =>
      (await readFile(sshdLog(n.name)))
        .subarray(from[i])
        .toString()
        .split('\n')
        .filter((l) => /session_input_channel_req: session \d+ req (exec|shell|subsystem)/.test(l))
        .map((l) => `${n.name}: ${l}`),
    ),
  );
  return all.flat();
}

const findings = async (s: Served, check: string) => {
  const { cycles, metrics } = await scrape(s);
  const fam = metrics.find((f) => f.name === 'smdoctor_check_findings');
  return { cycles, value: Number(fam?.metrics.find((m) => m.labels?.check === check)?.value ?? NaN) };
};

/** The check's findings once they moved from `before`, or as they stand two cycles after it: the edit's cycle and one. */
async function movedFrom(s: Served, check: string, before: Awaited<ReturnType<typeof findings>>) {
  let seen = before;
  while (seen.value === before.value && seen.cycles <= before.cycles + 2) {
    await new Promise((r) => setTimeout(r, 50));
    seen = await findings(s, check);
  }
  return seen;
}

t.test(
  'steady cycles start no program on the nodes; an edit shows within one cycle; touch -r waits for the full read',
  async (t) => {
    const FULL_EVERY = 6;
    const s = await startServe([
      '-i',
      lab.inventoryPath,
      '--interval',
      '1',
      '--timeout',
      '20',
      '--full-every',
      String(FULL_EVERY),
    ]);
    t.teardown(() => void s.proc.kill('SIGKILL'));
    const all = lab.nodes.length;

    // a window of two steady cycles in a row in which no host was read: the sshds logged no exec and no subsystem
    let quiet: string[] | undefined;
    for (let after = 0; quiet === undefined;) {
      const c = await waitCycle(s, (x) => !x.full && x.unchanged === all, after);
      const from = await logSizes();
      const next = await waitCycle(s, () => true, c.n + 2);
      const window = cycleLines(s).filter((x) => x.n > c.n + 1 && x.n <= next.n);
      if (window.every((x) => !x.full && x.unchanged === all)) quiet = await requests(from);
      after = next.n;
    }
    t.same(quiet, [], 'no exec, shell or subsystem request in two steady cycles');
    const opened = await requests(lab.nodes.map(() => 0));
    for (const n of lab.nodes)
      t.equal(
        opened.filter((l) => l.startsWith(`${n.name}: `) && /req subsystem/.test(l)).length,
        1,
        `${n.name}: one SFTP session for the kept connection`,
      );

    // m3 is a master whose file says node_with_sme: false: make it true, and check 2 finds it within one cycle
    const report = parseReport<Report>(await (await fetch(`${s.url}/report.json`)).text());
    const yml = join(
      report.clusters[0]!.nodes.find((n) => n.host === 'm3')!.layout!.engine_config.path,
      'opensearch.yml',
    );
    const original = await readFile(yml);
    t.teardown(() => writeFile(yml, original));
    const before = await findings(s, 'master-node-with-sme');
    t.match(original.toString(), /node_with_sme: false/);
    await writeFile(yml, original.toString().replace('node_with_sme: false', 'node_with_sme: true'));
    const seen = await movedFrom(s, 'master-node-with-sme', before);
    t.equal(seen.value, before.value + 1, 'the new finding is in /metrics');
    t.ok(
      seen.cycles <= before.cycles + 2,
      `within one cycle of the edit (cycle ${seen.cycles}, edited after ${before.cycles})`,
    );

    // the same number of bytes, the value no longer true, the mtime put back: only a full read sees it
    const edited = await readFile(yml, 'latin1');
    await execa('cp', ['-p', yml, `${yml}.ref`]);
    t.teardown(() => execa('rm', ['-f', `${yml}.ref`]));
    // past the seconds in which a stamp is not trusted, and right after a full read: the steady cycles come next
    await new Promise((r) => setTimeout(r, 3500));
    const full = await waitCycle(s, (x) => x.full, cycleLines(s).at(-1)?.n ?? 0);
    await writeFile(yml, edited.replace('node_with_sme: true', 'node_with_sme: tru_'), 'latin1');
    await execa('touch', ['-r', `${yml}.ref`, yml]);
    const samples: Array<{ cycles: number; value: number }> = [];
    for (let last = full.n; last < full.n + FULL_EVERY + 1;) {
      const f = await findings(s, 'master-node-with-sme');
      if (f.cycles !== last) samples.push(f);
      last = f.cycles;
      await new Promise((r) => setTimeout(r, 20));
    }
    const fullAfter = cycleLines(s).find((x) => x.n > full.n && x.full)!;
    t.equal(fullAfter.n, full.n + FULL_EVERY, 'the next full read is --full-every cycles later');
    const steady = samples.filter((x) => x.cycles > full.n + 1 && x.cycles < fullAfter.n);
    t.ok(steady.length > 0, 'steady cycles were scraped');
    t.ok(
      steady.every((x) => x.value === before.value + 1),
      `the steady cycles do not see it: ${JSON.stringify(steady)}`,
    );
    t.equal(
      samples.find((x) => x.cycles === fullAfter.n)?.value ?? (await findings(s, 'master-node-with-sme')).value,
      before.value,
      'the full read does',
    );
    s.proc.kill('SIGTERM');
    t.equal((await s.proc).exitCode, 0);
  },
);

t.test("a config that is a symlink: the target's edit shows within one cycle, the link unchanged", async (t) => {
  const s = await startServe(['-i', lab.inventoryPath, '--interval', '1', '--timeout', '20', '--full-every', '1000']);
  t.teardown(() => void s.proc.kill('SIGKILL'));
  const all = lab.nodes.length;
  const first = await waitCycle(s, (x) => !x.full && x.unchanged === all);
  const report = parseReport<Report>(await (await fetch(`${s.url}/report.json`)).text());
  const yml = join(
    report.clusters[0]!.nodes.find((n) => n.host === 'm3')!.layout!.engine_config.path,
    'opensearch.yml',
  );
  const target = `${yml}.target`;
  const original = await readFile(yml, 'latin1');
  t.match(original, /node_with_sme: false/);
  t.teardown(async () => {
    await rm(yml, { force: true });
    await writeFile(yml, original, 'latin1');
    await rm(target, { force: true });
  });
  // the file becomes a link to a file of the same bytes: the host is read again, then steady with the link known
  await rename(yml, target);
  await symlink(target, yml);
  const read = await waitCycle(s, (x) => x.unchanged < all, first.n);
  const settled = await waitCycle(s, (x) => !x.full && x.unchanged === all, read.n);
  const before = await findings(s, 'master-node-with-sme');
  t.ok(before.cycles >= settled.n, 'steady with the link');
  await writeFile(target, original.replace('node_with_sme: false', 'node_with_sme: true'), 'latin1');
  const seen = await movedFrom(s, 'master-node-with-sme', before);
  t.equal(seen.value, before.value + 1, "the target's edit is in /metrics");
  t.ok(
    seen.cycles <= before.cycles + 2,
    `within one cycle of the edit (cycle ${seen.cycles}, edited after ${before.cycles})`,
  );
  t.ok(
    cycleLines(s).every((x) => x.n <= 1 || !x.full),
    'no full read in between: the steady cycle saw it',
  );
  s.proc.kill('SIGTERM');
  t.equal((await s.proc).exitCode, 0);
});
