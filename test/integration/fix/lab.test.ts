import t, { type Test } from 'tap';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import { parse, stringify } from 'yaml';
import { runCli } from '../../helpers/cli.ts';
import { parseReport } from '../../helpers/schema.ts';
import { startLab, type Lab } from '../../../lab/src/index.ts';
import type { Action, Report } from '../../../src/model/index.ts';
import { fixArgs } from '../../helpers/fix-args.ts';

async function lab(t: Test): Promise<Lab> {
  const l = await startLab({ scenario: 'broken', restartDelayMs: 50 });
  t.teardown(() => l.stop());
  return l;
}

const actionsOf = (r: Report): Action[] => r.clusters.flatMap((c) => c.checks.flatMap((k) => k.actions));

async function fix(inventory: string, backupDir: string, ...extra: string[]) {
  const r = await runCli(fixArgs(inventory, { timeout: 20, backupDir }, ...extra), { cwd: '/tmp' });
  return { ...r, report: parseReport<Report>(r.out) };
}

t.test('broken lab: fix applies every action, audit passes after, a second fix has nothing to do', async (t) => {
  const l = await lab(t);
  const backupDir = join(t.testdir({}), 'backups');
  const first = await fix(l.inventoryPath, backupDir);
  t.equal(first.code, 0, first.err);
  const actions = actionsOf(first.report);
  t.ok(actions.length >= 10);
  t.same(
    actions.filter((a) => a.status !== 'done').map((a) => `${a.type} ${a.status} ${a.error ?? ''}`),
    [],
    'every action done',
  );
  t.match(first.report, {
    mode: 'fix',
    clusters: [
      {
        after: {
          checks: [{ status: 'pass' }, { status: 'pass' }, { status: 'pass' }, { status: 'pass' }, { status: 'pass' }],
        },
      },
    ],
  });

  // m2: plugins and keystore entry go before its restart, so it starts again and rejoins
  const onM2 = actions.filter((a) => a.host === 'm2').map((a) => a.type);
  t.same(onM2.slice(-2), ['remove-keystore-entry', 'restart-service']);
  t.match(
    actions.find((a) => a.host === 'm2' && a.type === 'restart-service'),
    { status: 'done', reason: 'rejoined; cluster settled' },
  );

  // the engine config keeps every comment: it is exactly the original with the planned diff applied
  const edit = actions.find((a) => a.type === 'set-yaml')!;
  t.ok(edit.backup?.startsWith(backupDir), 'backup under --backup-dir');
  const original = await readFile(edit.backup!, 'utf8');
  t.equal((await stat(edit.backup!)).mode & 0o777, 0o600);
  const now = await readFile(edit.path!, 'utf8');
  t.equal(now, applyPatch(original, edit.diff!), 'planned diff applied, nothing else');
  t.ok(
    original.includes('#') &&
      now.split('\n').filter((x) => x.startsWith('#')).length ===
        original.split('\n').filter((x) => x.startsWith('#')).length,
    'comments kept',
  );
  t.match(
    actions.find((a) => a.type === 'verify-shards'),
    { status: 'done', output: /STARTED/ },
  );

  const audit = await runCli(['audit', '-i', l.inventoryPath, '--format', 'json', '--timeout', '20'], { cwd: '/tmp' });
  t.equal(audit.code, 0, 'audit passes after the fix');

  const second = await fix(l.inventoryPath, backupDir);
  t.equal(second.code, 0, 'idempotent');
  t.same(actionsOf(second.report), [], 'nothing to do the second time');
  t.match(second.err, /nothing to fix/);
});

t.test('broken lab: --check applies only that check; a failing step stops the rest', async (t) => {
  const l = await lab(t);
  const backupDir = join(t.testdir({}), 'backups');
  const only = await fix(l.inventoryPath, backupDir, '--check', 'limits-index-replicas');
  t.equal(only.code, 0, only.err);
  t.same(
    actionsOf(only.report).map((a) => `${a.type} ${a.status}`),
    ['put-settings done', 'verify-shards done'],
  );
  const still = await runCli(
    ['audit', '-i', l.inventoryPath, '--format', 'json', '--check', 'base-limit-document,master-node-with-sme'],
    { cwd: '/tmp' },
  );
  t.equal(still.code, 1, 'the other checks were not touched');

  // m2's restart fails: what ran before it is done, and the elected manager m1's restart, which the rolling
  // procedure moves last, is skipped (limits-index-replicas was fixed above, so nothing else is left)
  const inv = parse(await readFile(l.inventoryPath, 'utf8'));
  inv.all.children.cluster_managers.hosts.m2.restart_command = 'false';
  const broken = join(l.dir, 'inventory-false.yml');
  await writeFile(broken, stringify(inv));
  const r = await fix(broken, backupDir);
  t.equal(r.code, 3);
  const steps = actionsOf(r.report).map((a) => `${a.type}${a.host ? ` ${a.host}` : ''} ${a.status}`);
  t.same(steps, [
    'put-document done',
    'set-yaml m1 done',
    'restart-service m1 skipped',
    'set-hosts web1 done',
    'restart-service web1 done',
    'remove-plugin m2 done',
    'remove-plugin m2 done',
    'remove-plugin m2 done',
    'remove-plugin m2 done',
    'remove-keystore-entry m2 done',
    'restart-service m2 failed',
  ]);
  const m1 = actionsOf(r.report).find((a) => a.type === 'restart-service' && a.host === 'm1');
  t.match(m1, { reason: /^an earlier step failed: \d+\. restart-service on m2/ });
  t.match(r.err, /incomplete: .*restart-service on m2 failed/);
});
