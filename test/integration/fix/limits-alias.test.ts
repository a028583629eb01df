/**
 * The limits index name is an alias (scenario limits-alias): the engine answers settings and `_cat/shards` under
 * the concrete index name. Audit must see the one real failure, and after fix, none.
 */
import t from 'tap';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { parseReport } from '../../helpers/schema.ts';
import { startLab } from '../../../lab/src/index.ts';
import type { Report } from '../../../src/model/index.ts';
import { fixArgs } from '../../helpers/fix-args.ts';

const CONCRETE = '.sm_sme_limits_user-000001';
const lab = await startLab({ scenario: 'limits-alias', restartDelayMs: 50 });
t.teardown(() => lab.stop());

const statuses = (r: Report) => Object.fromEntries(r.clusters[0].checks.map((c) => [c.id, c.status]));

t.test('audit: only the real cause, named by the index behind the alias', async (t) => {
  const r = await runCli(['audit', '-i', lab.inventoryPath, '--format', 'json'], { cwd: '/tmp' });
  t.equal(r.code, 1, r.err);
  const report = parseReport<Report>(r.out);
  t.same(statuses(report), {
    'base-limit-document': 'pass',
    'master-node-with-sme': 'pass',
    'dashboards-hosts': 'pass',
    'master-plugins': 'pass',
    'limits-index-replicas': 'fail',
  });
  const check = report.clusters[0].checks.find((c) => c.id === 'limits-index-replicas')!;
  t.same(
    check.findings.map((f) => f.message),
    [`index.auto_expand_replicas of ${CONCRETE} (behind alias .sm_sme_limits_user) is "false", not "0-all"`],
  );
});

t.test('fix puts the setting through the alias; the audit after passes, shards included', async (t) => {
  const r = await runCli(fixArgs(lab.inventoryPath, { timeout: 20, backupDir: join(t.testdir({}), 'b') }), {
    cwd: '/tmp',
  });
  t.equal(r.code, 0, r.err);
  const report = parseReport<Report>(r.out);
  t.same(
    report.clusters[0].after!.checks.map((c) => c.status),
    ['pass', 'pass', 'pass', 'pass', 'pass'],
  );
  const again = await runCli(['audit', '-i', lab.inventoryPath, '--format', 'json'], { cwd: '/tmp' });
  t.equal(again.code, 0, again.err);
});
