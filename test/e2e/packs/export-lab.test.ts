/**
 * A pack's remedies exported as a playbook and run by real ansible-playbook over SSH on the lab's pack-drift scenario:
 * --check changes nothing, the run fixes the drift the remedies cover, the audit after it finds it gone.
 */
import t from 'tap';
import { driftLab, statusById } from '../../helpers/packs/lab.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadInventory } from '../../../src/inventory/load.ts';
import { exportAnsible } from '../../../src/export/ansible.ts';
import { writePlaybookDir } from '../../../src/export/write.ts';
import { planDigest } from '../../../src/fix/plan-digest.ts';
import { plannedChecks } from '../../../src/fix/plan-file.ts';
import { playbook } from '../../helpers/export/ansible.ts';

t.setTimeout(900_000);
const drift = driftLab(100);
const audit = () => drift.audit();
// the lab as it started, audited once: the first test reads its plan, the second exports it (neither changes the lab)
let started: ReturnType<typeof audit> | undefined;
const startAudit = () => (started ??= audit());
const status = statusById;

t.test('a plan with pack checks re-derives with the vendor ids only', async (t) => {
  const plan = await startAudit();
  t.equal(
    plannedChecks(plan),
    'base-limit-document,master-node-with-sme,dashboards-hosts,master-plugins,limits-index-replicas',
  );
});

t.test('the exported playbook carries the pack remedies under real ansible-playbook', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'smdoctor-packexport-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const plan = await startAudit();
  const inventory = await loadInventory(drift.lab.inventoryPath);
  const out = await exportAnsible(plan, {
    inventory,
    hosts: [...inventory.hosts.keys()],
    env: process.env,
    timeout: 20,
    allowYellow: false,
    planFile: 'plan.json',
    digest: planDigest(plan),
    warn: (m) => t.comment(m),
  });
  if (!out.ok) t.comment(out.problems.join('\n'));
  t.ok(out.ok, 'exported');
  if (!out.ok) return;
  const pb = join(dir, 'playbook');
  await writePlaybookDir(pb, out.files);
  const check = await playbook(drift.lab, drift.lab.inventoryPath, pb, '--check', '--diff');
  if (check.code !== 0) t.comment(check.out, check.err);
  t.equal(check.code, 0, '--check runs');
  t.match(check.out, /-\s+memory_lock: false\n\+\s+memory_lock: true/, 'the diff is shown');
  t.equal(status(await audit()).get('drift/memory-lock'), 'fail', '--check changed nothing');
  const run = await playbook(drift.lab, drift.lab.inventoryPath, pb);
  if (run.code !== 0) t.comment(run.out, run.err);
  t.equal(run.code, 0, 'the playbook runs');
  const after = status(await audit());
  for (const id of ['drift/memory-lock', 'drift/destructive-by-name', 'drift/same-plugins', 'drift/no-icu'])
    t.equal(after.get(id), 'pass', `${id} passes after the playbook`);
});
