/** What --history and diff read is checked: kept reports against the report schema, order by smdoctor's own sequence. */
import t from 'tap';
import { SCHEMA_VERSION } from '../../../src/base/version.ts';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runFix } from '../../../src/cli/commands/fix.ts';
import { keepReport, listHistory, recentReports, trustedHistory } from '../../../src/cli/history.ts';
import { readPlan } from '../../../src/fix/plan-file.ts';
import { plannedActions } from '../../../src/fix/apply.ts';
import { untouched } from '../../../src/fix/outcome.ts';
import type { Report } from '../../../src/model/index.ts';
import { renderReport } from '../../../src/report/render.ts';
import { captureContext, runCli, withDeps } from '../../helpers/cli.ts';
import { noLeases } from '../../helpers/fix/fakes.ts';
import { sample } from '../../helpers/report/sample.ts';

const json = (r: Report = sample()): string => renderReport(r, 'json');
const HOUR = 3_600_000;
const worse = (): Report => {
  const r = sample();
  r.clusters[0]!.checks[0]!.status = 'fail';
  return r;
};
// 20,000 levels: JSON.parse takes it, every recursive walk after it (redaction, digest) overflowed the stack
const deep = (n = 20_000): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const withField = (r: unknown, field: string, raw: string): string =>
  JSON.stringify({ ...(r as object), [field]: '@@' }).replace('"@@"', raw);
const noChecks = (): Report => {
  const r = sample();
  delete (r.clusters[0] as Partial<Report['clusters'][0]>).checks;
  return r;
};

// each: a report file's text, and the field the error must name
const MALFORMED: Array<{ what: string; text: string; field: RegExp }> = [
  {
    what: 'a null cluster',
    text: JSON.stringify({ ...sample(), clusters: [null] }),
    field: /field clusters\[0\] is null, expected object/,
  },
  { what: 'a cluster without checks', text: json(noChecks()), field: /field clusters\[0\]\.checks is missing/ },
  {
    what: "the review's kept report",
    text: '{"tool":"smdoctor","mode":"audit","clusters":[null]}',
    field: /field version is missing/,
  },
  {
    what: 'an unknown status',
    text: json(sample()).replace('"status": "pass"', '"status": "x\\"><meta http-equiv=refresh>"'),
    field: /field clusters\[0\]\.checks\[0\]\.status is string "x\\"><meta/,
  },
  {
    what: 'JSON nested 20,000 deep',
    text: withField(sample(), 'deep', deep()),
    field: /field deep\.a\.a\.a\S* nests deeper than 100 levels/,
  },
  {
    what: 'a deep finding evidence',
    text: json(sample()).replace('"what": "plugins"', `"what": ${deep()}`),
    field: /field clusters\[0\]\.notes\[0\]\.evidence\.what\.a\.a\S* nests deeper than 100 levels/,
  },
];

t.test(
  'diff: a malformed or deep report is exit 2 naming the file and the field, never an internal error',
  async (t) => {
    for (const c of MALFORMED) {
      const dir = t.testdir({ 'bad.json': c.text, 'ok.json': json() });
      for (const args of [
        ['bad.json', 'ok.json'],
        ['ok.json', 'bad.json'],
      ]) {
        const r = await runCli(['diff', ...args, '--format', 'text'], { cwd: dir });
        t.equal(r.code, 2, `${c.what}: exit 2`);
        t.match(r.err, /bad\.json: /, `${c.what}: names the file`);
        t.match(r.err, c.field, `${c.what}: names the field`);
        t.notMatch(r.err, /internal error|TypeError|stack/i, `${c.what}: no internal error`);
      }
    }
  },
);

t.test('diff: ESC in a report time is shown escaped', async (t) => {
  const r = worse();
  r.generated_at = '2026-11-27T\x1b[2J\x1b]0;owned\x07';
  const dir = t.testdir({ 'old.json': json(), 'new.json': json(r) });
  const d = await runCli(['diff', 'old.json', 'new.json', '--format', 'text'], { cwd: dir });
  t.equal(d.code, 1);
  t.notMatch(d.out, /[\x07\x1b]/);
  t.match(d.out, 'with audit of 2026-11-27T\\x1b[2J\\x1b]0;owned\\x07');
});

t.test('kept reports: a malformed one is skipped with a warning naming it; the others are read', async (t) => {
  const dir = t.testdir({});
  await keepReport(dir, 'audit', json(), 50);
  const bad: string[] = [];
  for (const c of MALFORMED) bad.push(await keepReport(dir, 'audit', c.text, 50));
  await keepReport(dir, 'audit', json(worse()), 50);
  const warnings: string[] = [];
  const got = await recentReports(dir, 20, (m) => warnings.push(m));
  t.equal(got.length, 2, 'the two good ones');
  t.equal(got[1]!.clusters[0]!.checks[0]!.status, 'fail', 'oldest first');
  t.equal(warnings.length, MALFORMED.length);
  MALFORMED.forEach((c, i) => {
    t.match(warnings[i], bad[i]!, `${c.what}: the file`);
    t.match(warnings[i], c.field, `${c.what}: the field`);
  });
});

t.test('fix --format html -o with a malformed kept report: the actions run and the report is written', async (t) => {
  const dir = t.testdir({
    'inv.yml': 'all:\n  vars:\n    api_url: https://10.0.0.1:9200\n  hosts:\n    m1:\n      ansible_host: 10.0.0.11\n',
  });
  const history = join(dir, 'h');
  await keepReport(history, 'audit', json(), 50);
  await keepReport(history, 'audit', MALFORMED[0]!.text, 50);
  const ctx = captureContext({ env: { HOME: dir } });
  const planned = sample();
  let applied = 0;
  const code = await runFix(
    withDeps(ctx, {
      signals: [],
      leases: noLeases,
      audit: async () => planned,
      apply: async (r) => {
        applied++;
        return {
          interrupted: false,
          clusters: r.clusters.map((k) => ({
            ...untouched(k.api_url),
            failed: false,
            actions: plannedActions(k).map(() => ({ status: 'done' as const, step: 1 })),
          })),
        };
      },
    }),
    {
      inventory: [join(dir, 'inv.yml')],
      forks: 1,
      timeout: 5,
      verbose: 0,
      yes: true,
      format: 'html',
      output: join(dir, 'fix.html'),
      history,
      backupDir: join(dir, 'bk'),
    },
  );
  t.equal(applied, 1, 'the actions ran');
  t.match(await readFile(join(dir, 'fix.html'), 'utf8'), /^<!doctype html>/i, 'the -o report is written');
  t.match(ctx.err(), /warning: .*audit\.json: field clusters\[0\] is null.*\(skipped\)/);
  t.notMatch(ctx.err(), /internal error/);
  t.equal((await listHistory(history, ['fix'])).length, 1, 'and kept');
  t.equal(code, 3, "exit 3 for the sample's check in error");
  t.notMatch(ctx.err(), /could not be kept/, 'kept');
  t.match(ctx.err(), /incomplete: .*not decided: dashboards-hosts/);
});

t.test('a clock a year ahead: its report is not the newest; diff --history compares by sequence', async (t) => {
  const dir = t.testdir({});
  const h = join(dir, 'h');
  const now = Date.now();
  await keepReport(h, 'audit', json(), 50, new Date(now - 2 * HOUR));
  const ahead = await keepReport(h, 'audit', json(), 50, new Date(now + 365 * 24 * HOUR));
  await keepReport(h, 'audit', json(worse()), 50, new Date(now));
  const r = await runCli(['diff', '--history', 'h', '--format', 'text'], { cwd: dir });
  t.equal(r.code, 1, 'the real regression, not FIXED');
  t.match(r.out, /REGRESSED\s+base-limit-document: PASS → FAIL/);
  t.match(r.err, `warning: ${ahead}: dated in the future`);
  const warned: string[] = [];
  const trusted = await trustedHistory(h, ['audit'], (m) => warned.push(m), now);
  t.equal(trusted.length, 2, 'set aside');
  t.equal(warned.length, 1);
});

t.test('pruning follows the sequence: a future-dated report goes like any other', async (t) => {
  const dir = t.testdir({});
  const now = Date.now();
  await keepReport(dir, 'audit', json(), 2, new Date(now + 365 * 24 * HOUR));
  for (let i = 0; i < 3; i++) await keepReport(dir, 'audit', json(), 2, new Date(now + i));
  const names = (await readdir(dir)).sort();
  t.equal(names.length, 2);
  t.match(names, [/^000003\./, /^000004\./], 'the two newest by sequence');
});

t.test('names kept before 0.4 (no sequence) come first, by time; a future one among them is set aside', async (t) => {
  const dir = t.testdir({
    '2026-11-20T07-00-00.000Z.audit.json': json(),
    '2099-01-01T00-00-00.000Z.audit.json': json(),
    '2026-11-21T07-00-00.000Z.audit.json': json(),
  });
  const mine = await keepReport(dir, 'audit', json(), 50, new Date('2026-11-27T00:00:00Z'));
  const order = (await listHistory(dir)).map((k) => k.file.slice(dir.length + 1));
  t.same(order, [
    '2026-11-20T07-00-00.000Z.audit.json',
    '2026-11-21T07-00-00.000Z.audit.json',
    '2099-01-01T00-00-00.000Z.audit.json',
    mine.slice(dir.length + 1),
  ]);
  t.match(mine, /000001\.2026-11-27T00-00-00\.000Z\.audit\.json$/);
  const trusted = await trustedHistory(dir, ['audit'], () => undefined, Date.parse('2026-11-27T00:00:00Z'));
  t.notOk(
    trusted.some((k) => k.file.includes('2099')),
    'the future one is set aside',
  );
});

t.test('fix --plan: a deep put-document body is exit 2 naming the file and the field', async (t) => {
  const dir = t.testdir({});
  const now = Date.parse('2026-11-27T01:00:00Z');
  const plan = sample();
  plan.schema_version = SCHEMA_VERSION;
  plan.generated_at = '2026-11-27T00:00:00.000Z';
  for (const c of plan.clusters)
    c.pins = { nodes: [], elected_manager: null, cluster_settings: null, index_settings: null };
  const doc = plan.clusters[0]!.checks[0]!;
  doc.actions = [{ type: 'put-document', method: 'PUT', api_path: '/x/_doc/1', body: '@@', status: 'planned' }];
  const ok = join(dir, 'ok.json');
  await writeFile(ok, json(plan));
  t.match(await readPlan(ok, 24 * HOUR, now), { mode: 'audit' }, 'the same plan with a flat body is read');
  const file = join(dir, 'deep.json');
  await writeFile(file, json(plan).replace('"@@"', deep()));
  await t.rejects(readPlan(file, 24 * HOUR, now), {
    name: 'InputError',
    message: /deep\.json: field clusters\[0\]\.checks\[0\]\.actions\[0\]\.body\.a\.a\S* nests deeper than 100 levels/,
  });
});
