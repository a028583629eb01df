/** --history keeps whole, time-stamped reports and prunes the oldest of a kind; smdoctor diff reads them (exit 0/1/2). */
import t from 'tap';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { keepReport, listHistory } from '../../../src/cli/history.ts';
import { renderReport } from '../../../src/report/render.ts';
import { runCli } from '../../helpers/cli.ts';
import { sample } from '../../helpers/report/sample.ts';

const json = (r = sample()) => renderReport(r, 'json');

t.test('kept reports are numbered in order; only the newest N of each kind remain; nothing half-written', async (t) => {
  const dir = t.testdir({ 'notes.txt': 'mine' });
  const base = Date.parse('2026-11-25T07:00:00Z');
  for (let i = 0; i < 5; i++) await keepReport(dir, 'audit', json(), 3, new Date(base + i * 1000));
  await keepReport(dir, 'migrate-jobs', '{}\n', 3, new Date(base));
  // the same millisecond twice: both kept
  await keepReport(dir, 'audit', json(), 10, new Date(base + 4000));
  const audits = (await listHistory(dir, ['audit'])).map((k) => k.file.slice(dir.length + 1));
  t.same(audits, [
    '000003.2026-11-25T07-00-02.000Z.audit.json',
    '000004.2026-11-25T07-00-03.000Z.audit.json',
    '000005.2026-11-25T07-00-04.000Z.audit.json',
    '000007.2026-11-25T07-00-04.000Z.audit.json',
  ]);
  const names = await readdir(dir);
  t.ok(names.includes('notes.txt'), 'files that are not kept reports are never pruned');
  t.ok(names.includes('000006.2026-11-25T07-00-00.000Z.migrate-jobs.json'), 'another kind is pruned on its own');
  t.notOk(
    names.some((n) => n.endsWith('.tmp')),
    'no temporary file left',
  );
  t.same(JSON.parse(await readFile(join(dir, audits[0]!), 'utf8')).clusters.length, 2);
});

t.test('diff OLD NEW: exit 1 on a regression, 0 otherwise, 2 when not comparable', async (t) => {
  const dir = t.testdir({});
  const old = sample();
  const worse = sample();
  worse.clusters[0]!.checks[0]!.status = 'fail';
  const other = sample();
  other.clusters.pop();
  await writeFile(join(dir, 'old.json'), json(old));
  await writeFile(join(dir, 'worse.json'), json(worse));
  await writeFile(join(dir, 'other.json'), json(other));
  const reg = await runCli(['diff', 'old.json', 'worse.json', '--format', 'text'], { cwd: dir });
  t.equal(reg.code, 1);
  t.match(reg.out, /REGRESSED\s+base-limit-document: PASS → FAIL/);
  const back = await runCli(['diff', 'worse.json', 'old.json', '--format', 'json'], { cwd: dir });
  t.equal(back.code, 0);
  t.equal(JSON.parse(back.out).counts.fixed, 1);
  const md = await runCli(['diff', 'old.json', 'old.json', '--format', 'markdown'], { cwd: dir });
  t.equal(md.code, 0);
  t.match(md.out, '# smdoctor diff — 0 regressed, 0 fixed, 0 changed, 6 stayed');
  const no = await runCli(['diff', 'old.json', 'other.json', '--format', 'text'], { cwd: dir });
  t.equal(no.code, 2);
  t.match(no.out, 'clusters only in the older report: https://10.0.1.1:9200');
});

t.test('diff: bad input is named, exit 2', async (t) => {
  const dir = t.testdir({ 'bad.json': '{"tool": "smdoctor",', 'list.json': '[]', 'ok.json': json() });
  const bad = await runCli(['diff', 'bad.json', 'ok.json'], { cwd: dir });
  t.equal(bad.code, 2);
  t.match(bad.err, /bad\.json: not JSON/);
  const list = await runCli(['diff', 'list.json', 'ok.json'], { cwd: dir });
  t.equal(list.code, 2);
  t.match(list.err, /list\.json: not a JSON report of smdoctor audit or fix/);
  const missing = await runCli(['diff', 'nope.json', 'ok.json'], { cwd: dir });
  t.equal(missing.code, 2);
  t.match(missing.err, /nope\.json: cannot be read \(ENOENT\)/);
  const one = await runCli(['diff', 'ok.json'], { cwd: dir });
  t.equal(one.code, 2);
  t.match(one.err, /give two JSON reports/);
});

t.test('diff --history DIR: the last two audit or fix reports; fewer than two is said', async (t) => {
  const dir = t.testdir({});
  const none = await runCli(['diff', '--history', 'h'], { cwd: dir });
  t.equal(none.code, 2);
  t.match(none.err, /0 audit or fix reports kept there; two are needed/);
  const worse = sample();
  worse.clusters[0]!.checks[0]!.status = 'fail';
  const h = join(dir, 'h');
  await keepReport(h, 'audit', json(), 50, new Date('2026-11-25T07:00:00Z'));
  await keepReport(h, 'audit', json(worse), 50, new Date('2026-11-25T08:00:00Z'));
  await keepReport(h, 'migrate-jobs', '{"tool":"smdoctor"}\n', 50, new Date('2026-11-25T09:00:00Z'));
  const r = await runCli(['diff', '--history', 'h', '--format', 'json'], { cwd: dir });
  t.equal(r.code, 1, 'the newest audit regressed; the migrate report is not one of the two');
  t.equal(JSON.parse(r.out).new.generated_at, null);
});
