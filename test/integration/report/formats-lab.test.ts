/** On the broken lab: --format prometheus (audit, migrate) checked by promtool, --history kept, diff before/after a fix. */
import t from 'tap';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { labForFile } from '../../helpers/lab.ts';
import { parseMetrics, promtool, runPromtool } from '../../helpers/promtool.ts';

const shared = labForFile('broken');
const cli = (...args: string[]) => runCli([...args, '-i', shared.lab.inventoryPath, '--timeout', '20']);
const value = (text: string, name: string, labels: Record<string, string>) =>
  parseMetrics(text)
    .find((f) => f.name === name)
    ?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v))?.value;

t.test('audit --format prometheus -o: a whole file for the textfile collector, valid for promtool', async (t) => {
  const dir = t.testdir({});
  const file = join(dir, 'smdoctor.prom');
  const r = await cli('audit', '--format', 'prometheus', '-o', file);
  t.equal(r.code, 1, 'the broken lab fails');
  const text = await readFile(file, 'utf8');
  t.same(await readdir(dir), ['smdoctor.prom'], 'no temporary file left beside it');
  for (const check of ['base-limit-document', 'master-node-with-sme', 'limits-index-replicas'])
    t.equal(value(text, 'smdoctor_check_status', { check, status: 'fail' }), '1', `${check} fails`);
  t.equal(value(text, 'smdoctor_hosts_unreachable', { cluster: 'lab' }), '0');
  t.ok(Number(value(text, 'smdoctor_run_duration_seconds', { mode: 'audit' })) > 0, 'the run took some time');
  if (!promtool()) return t.comment('promtool not installed: its check is skipped');
  const p = await runPromtool(['check', 'metrics'], text);
  t.equal(p.code, 0, p.out);
});

t.test('migrate jobs|dashboards --format prometheus: to change and to review per cluster and kind', async (t) => {
  for (const kind of ['jobs', 'dashboards']) {
    const list = JSON.parse((await cli('migrate', kind, '--format', 'json')).out) as Array<{ manual_review?: boolean }>;
    const r = await cli('migrate', kind, '--format', 'prometheus');
    t.equal(r.code, 1);
    const labels = { kind };
    t.equal(
      value(r.out, 'smdoctor_migrate_queries_to_change', labels),
      String(list.filter((e) => !e.manual_review).length),
    );
    t.equal(
      value(r.out, 'smdoctor_migrate_queries_to_review', labels),
      String(list.filter((e) => e.manual_review).length),
    );
    t.equal(value(r.out, 'smdoctor_migrate_cluster_error', labels), '0');
    if (promtool()) t.equal((await runPromtool(['check', 'metrics'], r.out)).code, 0, `${kind}: promtool accepts it`);
  }
  const bad = await cli('migrate', 'jobs', '--format', 'prometheus', '--source', 'service');
  t.equal(bad.code, 2, 'only what smdoctor found itself');
});

t.test('--history: a bad directory is refused before anything runs', async (t) => {
  const dir = t.testdir({ file: 'x' });
  const r = await cli('audit', '--format', 'json', '--history', join(dir, 'file', 'h'));
  t.equal(r.code, 2);
  t.match(r.err, /--history .*file is not a directory/);
  t.equal(r.out, '');
});

t.test('audit, audit, fix with --history; diff --history says what stayed, then what the fix fixed', async (t) => {
  const dir = t.testdir({});
  const h = join(dir, 'h');
  t.equal((await cli('audit', '--format', 'json', '--history', h)).code, 1);
  t.equal((await cli('audit', '--format', 'json', '--history', h, '--history-keep', '1')).code, 1);
  t.equal((await readdir(h)).length, 1, '--history-keep 1 kept the newest only');
  await cli('audit', '--format', 'json', '--history', h);
  const same = await runCli(['diff', '--history', h, '--format', 'json']);
  t.equal(same.code, 0, 'nothing changed between two audits');
  t.same(JSON.parse(same.out).counts, { regressed: 0, fixed: 0, changed: 0, stayed: 5 });
  const fix = await cli('fix', '--yes', '--format', 'json', '--history', h, '--backup-dir', join(dir, 'bk'));
  t.equal(fix.code, 0, 'the fix succeeded');
  const kinds = (await readdir(h)).map((n) => n.split('.').at(-2)).sort();
  t.same(kinds, ['audit', 'audit', 'fix']);
  const fixed = await runCli(['diff', '--history', h, '--format', 'text']);
  t.equal(fixed.code, 0);
  t.match(fixed.out, 'summary: 0 regressed, 5 fixed, 0 changed, 0 stayed');
  // the other way round, the fix's result regressed to the broken state
  const files = (await readdir(h)).sort().map((n) => join(h, n));
  const back = await runCli(['diff', files[2]!, files[1]!, '--format', 'text']);
  t.equal(back.code, 1);
  t.match(back.out, /REGRESSED\s+base-limit-document: PASS → FAIL/);
});
