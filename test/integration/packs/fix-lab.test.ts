/**
 * A pack's remedies carried out by fix's own machinery (applyPlan: the lease, backups, the files' drift check, the
 * rolling restart) on the lab's pack-drift scenario over real sshd; the audit after it finds the drift gone.
 */
import t from 'tap';
import { driftLab, statusById } from '../../helpers/packs/lab.ts';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadInventory } from '../../../src/inventory/load.ts';
import { applyPlan } from '../../../src/fix/run.ts';
import { backupStore } from '../../../src/base/backup.ts';
import type { Action } from '../../../src/model/index.ts';

t.setTimeout(600_000);
const drift = driftLab(100);
const audit = () => drift.audit();
const status = statusById;

t.test('fix carries out the pack remedies with the rolling restart', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'smdoctor-packfix-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const plan = await audit();
  const planned = plan.clusters[0]!.checks.flatMap((c) =>
    c.actions.map((a) => `${c.id} ${a.type} ${a.host ?? a.api_path}`),
  );
  t.same(planned.sort(), [
    'drift/destructive-by-name put-settings /_cluster/settings',
    'drift/memory-lock restart-service d3',
    'drift/memory-lock set-yaml d3',
    'drift/same-plugins remove-plugin d2',
    'drift/same-plugins restart-service d2',
  ]);
  const d3 = plan.clusters[0]!.checks.flatMap((c) => c.actions).find((a) => a.type === 'set-yaml')!;
  const before = await readFile(d3.path!, 'utf8');
  const inventory = await loadInventory(drift.lab.inventoryPath);
  const steps: string[] = [];
  await applyPlan(plan, {
    inventory,
    hosts: [...inventory.hosts.keys()],
    timeout: 30,
    env: process.env,
    backup: backupStore(join(dir, 'backups')),
    onStep: (_c, a: Action, _s, outcome) => steps.push(`${a.type} ${a.host ?? a.api_path} ${outcome.status}`),
  });
  t.comment(steps.join('\n'));
  t.ok(
    steps.every((s) => s.endsWith(' done')),
    'every step done',
  );
  t.match(
    steps.join('\n'),
    /restart-service d2 done[\s\S]*restart-service d3 done|restart-service d3 done[\s\S]*restart-service d2 done/,
    'one node restarted at a time',
  );
  const after = status(await audit());
  for (const id of ['drift/memory-lock', 'drift/destructive-by-name', 'drift/same-plugins', 'drift/no-icu'])
    t.equal(after.get(id), 'pass', `${id} passes after the fix`);
  t.equal(after.get('drift/heap-same'), 'fail', 'a check with no remedy is left as it was');
  const now = await readFile(d3.path!, 'utf8');
  t.equal(now, before.replace('memory_lock: false', 'memory_lock: true'), 'exactly the diff, comments kept');
});
