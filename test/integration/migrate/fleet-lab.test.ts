import t from 'tap';
import { readdir } from 'node:fs/promises';
import { startLab, fleetScenario, type Lab } from '../../../lab/src/index.ts';
import { captureContext, runCli } from '../../helpers/cli.ts';
import { main } from '../../../src/cli/main.ts';

// A two-cluster inventory migrated in one run: one report grouped by cluster, --apply on both with its safety per cluster.
let lab: Lab;
t.before(async () => {
  lab = await startLab({ scenario: fleetScenario(2, 2) });
});
t.teardown(() => lab?.stop());
const cli = (args: string[], o = {}) => runCli(['migrate', ...args, '-i', lab.inventoryPath], o);

t.test('jobs over both clusters: one JSON report, a section per cluster with its hosts', async (t) => {
  const r = await cli(['jobs', '--format', 'json']);
  t.equal(r.code, 1, r.err);
  const { clusters } = JSON.parse(r.out);
  t.equal(clusters.length, 2);
  t.not(clusters[0].api_url, clusters[1].api_url);
  for (const c of clusters) {
    t.match(c, { index: '.sm_jsc_jobs', missing: false, hosts: [/^c\d-/] });
    t.match(c.entries, [
      { job_id: 'failed-logins', doc_id: 'job-1', query: { replacement: /search code=401 text host=web\*/ } },
    ]);
  }
  const text = await cli(['dashboards', '--format', 'text']);
  t.equal(text.code, 1);
  t.equal(text.out.match(/^== cluster https:\/\/\S+ \(c\d-/gm)?.length, 2, 'a text section per cluster');
  const one = await cli(['jobs', '--format', 'json', '--limit', clusters[1].hosts[0]]);
  t.equal(one.code, 1);
  t.ok(Array.isArray(JSON.parse(one.out)), '--limit through a host: that one cluster, the plain list');
});

t.test(
  '--apply --yes over both clusters: backups per cluster, every rewrite applied, a second run has nothing left',
  async (t) => {
    const backups = t.testdir();
    const r = await cli(['jobs', '--apply', '--yes', '--format', 'json', '--backup-dir', backups], { tty: false });
    t.equal(r.code, 0, 'everything rewritten on both clusters');
    const { clusters } = JSON.parse(r.out);
    for (const c of clusters) {
      const auto = c.entries.filter((e: any) => !e.manual_review);
      t.ok(auto.length >= 1);
      t.ok(
        auto.every((e: any) => e.apply.status === 'applied'),
        `${c.api_url}: applied`,
      );
      t.match(c.backup, backups);
    }
    t.equal((await readdir(backups)).length, 2, 'one backup folder per cluster');
    t.match(r.err, /original documents saved under/);
    const again = await cli(['jobs', '--format', 'json']);
    t.equal(again.code, 0);
    for (const c of JSON.parse(again.out).clusters) t.strictSame(c.entries, [], `${c.api_url}: nothing left`);
  },
);

t.test('on a terminal, one question for the fleet and a progress line per cluster', async (t) => {
  const ctx = captureContext({ stdinTTY: true, stdin: 'y\n' });
  Object.assign(ctx.stderr, { isTTY: true });
  const code = await main(
    [
      'node',
      'smdoctor',
      'migrate',
      'dashboards',
      '--apply',
      '--format',
      'json',
      '--backup-dir',
      t.testdir(),
      '-i',
      lab.inventoryPath,
    ],
    ctx,
  );
  t.equal(code, 1, 'the panels for a person are still listed');
  t.match(
    ctx.err(),
    /Rewrite \d+ queries in 2 clusters \(https:\/\/[^:]+:9200: \d+, https:\/\/[^:]+:9200: \d+\)\? \[y\/N\]/,
  );
  const progress = ctx.err().match(/^smdoctor: https:\/\/\S+: \d+ applied, 0 conflicts, 0 failed$/gm) ?? [];
  t.equal(progress.length, 2, 'a progress line per cluster');
});
