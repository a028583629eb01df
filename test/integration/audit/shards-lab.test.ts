/** audit --shard K/N as N real processes on a lab of several clusters, then merge: the same report as one run. */
import t from 'tap';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { startLab, fleetScenario, type Lab } from '../../../lab/src/index.ts';
import { parseReport } from '../../helpers/schema.ts';
import type { Report } from '../../../src/model/index.ts';
import { shardOf } from '../../../src/inventory/shard.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
// the built CLI, as users and the shard jobs run it
const smdoctor = (args: string[]) =>
  execa(process.execPath, [join(root, 'bin/smdoctor.js'), ...args], {
    cwd: root,
    reject: false,
    env: { NO_COLOR: '1' },
  });

let lab: Lab;
t.before(async () => {
  lab = await startLab({ scenario: fleetScenario(5, 2) });
});
t.teardown(() => lab?.stop());

// what differs between two runs of the same audit: when it ran
const essence = (r: Report): unknown => ({ ...r, generated_at: undefined });

t.test('three shard processes and merge equal one process (report and exit code)', async (t) => {
  const dir = t.testdir();
  const audit = ['audit', '-i', lab.inventoryPath, '--format', 'json', '--timeout', '20'];
  const [whole, ...shards] = await Promise.all([
    smdoctor(audit),
    ...[0, 1, 2].map((k) => smdoctor([...audit, '--shard', `${k}/3`, '-o', join(dir, `s${k}.json`)])),
  ]);
  const one = parseReport<Report>(whole!.stdout);
  t.equal(one.clusters.length, 5, whole!.stderr);
  const parts = await Promise.all(
    [0, 1, 2].map(async (k) => parseReport<Report>(await readFile(join(dir, `s${k}.json`), 'utf8'))),
  );
  const hostsOf = (r: Report) => r.clusters.flatMap((c) => c.nodes.map((n) => n.host));
  t.same(parts.flatMap(hostsOf).sort(), hostsOf(one).sort(), 'every host in exactly one shard');
  // the lab's addresses are random, so where each cluster lands is too: each shard holds exactly its own
  const names = (cs: Report['clusters']) => cs.map((c) => c.name).sort();
  t.same(
    parts.map((p) => names(p.clusters)),
    [0, 1, 2].map((k) => names(one.clusters.filter((c) => shardOf(c.api_url, 3) === k))),
    'each cluster in the shard its API address hashes to',
  );
  for (const [k, s] of shards.entries())
    t.ok([0, 1].includes(s.exitCode!) || s.exitCode === one.clusters.length, `shard ${k}: ${s.stderr}`);

  const merged = await smdoctor(['merge', ...[0, 1, 2].map((k) => join(dir, `s${k}.json`)), '--format', 'json']);
  t.equal(merged.exitCode, whole!.exitCode, merged.stderr);
  t.same(essence(parseReport<Report>(merged.stdout)), essence(one));

  const two = await smdoctor(['merge', join(dir, 's0.json'), join(dir, 's2.json')]);
  t.equal(two.exitCode, 2, 'a shard missing is refused');
  t.match(two.stderr, /shard 1\/3 missing/);
});

t.test('more shards than clusters: the empty shards report nothing and exit 0', async (t) => {
  const dir = t.testdir();
  const runs = await Promise.all(
    Array.from({ length: 12 }, (_, k) =>
      smdoctor([
        'audit',
        '-i',
        lab.inventoryPath,
        '--format',
        'json',
        '--shard',
        `${k}/12`,
        '-o',
        join(dir, `s${k}.json`),
      ]),
    ),
  );
  const reports = await Promise.all(
    runs.map(async (_, k) => parseReport<Report>(await readFile(join(dir, `s${k}.json`), 'utf8'))),
  );
  const empty = runs.filter((_, k) => reports[k]!.clusters.length === 0);
  t.ok(empty.length >= 7, 'at most 5 of 12 shards hold a cluster');
  t.same(
    empty.map((r) => r.exitCode),
    empty.map(() => 0),
    'an empty shard succeeds',
  );
  const merged = await smdoctor(['merge', ...runs.map((_, k) => join(dir, `s${k}.json`)), '--format', 'json']);
  t.equal(parseReport<Report>(merged.stdout).clusters.length, 5, merged.stderr);
});
