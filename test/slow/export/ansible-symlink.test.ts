/**
 * A config that is a symlink (as packages and config management often leave it): fix edits through the link, and so
 * must the playbook: its pin reads the target's sha256, its copy writes the target and the link stays a link.
 */
import t from 'tap';
import { lstat, mkdir, mkdtemp, readFile, readlink, rename, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startLab, type Lab } from '../../../lab/src/index.ts';
import { audit, exportPlan, playbook } from '../../helpers/export/ansible.ts';

// a lab, three audits and a playbook run over SSH: slow on a loaded machine
t.setTimeout(900_000);

let lab: Lab;
t.before(async () => {
  lab = await startLab({ scenario: 'broken', restartDelayMs: 100 });
});
t.teardown(async () => {
  await lab?.stop();
});

t.test("m1's opensearch.yml is a symlink: the play pins and writes its target", async (t) => {
  const m1 = lab.nodes.find((n) => n.name === 'm1')!;
  const link = join(m1.searchHome, 'config', 'opensearch.yml');
  const target = join(lab.dir, 'managed', 'm1-opensearch.yml');
  await mkdir(join(lab.dir, 'managed'));
  await rename(link, target);
  await symlink(target, link);
  const work = await mkdtemp(join(tmpdir(), 'smdoctor-export-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  const plan = join(work, 'plan.json');
  const before = await audit(lab.inventoryPath, plan);
  const edits = before.report.clusters[0]!.checks.flatMap((k) => k.actions).filter((a) => a.host === 'm1');
  t.ok(
    edits.some((a) => a.type === 'set-yaml' && a.path === link),
    'the plan edits it',
  );
  const dir = join(work, 'playbook');
  t.equal((await exportPlan(plan, lab.inventoryPath, dir)).code, 0, 'exported');
  const run = await playbook(lab, lab.inventoryPath, dir);
  if (run.code !== 0) t.comment(run.out);
  t.equal(run.code, 0, 'the pin passes and the play runs');
  t.ok((await lstat(link)).isSymbolicLink(), 'the link is still a link');
  t.equal(await readlink(link), target);
  t.same(await readFile(target), await readFile(join(dir, 'files', 'hosts', 'm1', link)), 'its target was written');
  t.equal((await audit(lab.inventoryPath)).code, 0, 'audit finds nothing');
});
