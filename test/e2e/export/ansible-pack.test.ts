/**
 * A pack's `put_cluster_setting` exported and run by real ansible-playbook over SSH on the healthy lab: the run makes
 * the setting, a second run passes its cluster-settings pin (the plan's own put counts as the plan's) and changes
 * nothing, its "already in place" test reading the cluster settings (the API's "true" for a pack's `true`).
 */
import t from 'tap';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Report } from '../../../src/model/index.ts';
import { exportPlan, playbook } from '../../helpers/export/ansible.ts';
import { runCli } from '../../helpers/cli.ts';
import { labForFile } from '../../helpers/lab.ts';

// a lab, three audits and two playbook runs over SSH: slow on a loaded machine
t.setTimeout(900_000);

const PACK = `smdoctor_pack: 1
name: acme
checks:
  - id: destructive-by-name
    title: Deleting indices needs their names
    severity: critical
    why: A wildcard delete wipes the cluster.
    each: cluster
    read: { api: { path: _cluster/settings?flat_settings=true, pick: persistent.action.destructive_requires_name } }
    expect: { equals: 'true' }
    remedy: { put_cluster_setting: { key: action.destructive_requires_name, value: true } }
`;

const shared = labForFile('healthy');

t.test('the run makes the setting; a rerun passes its pins and changes nothing', async (t) => {
  const { lab, target } = shared;
  // the setting as a careless operator left it: false (the lab's API answers it as the string "false")
  await target.api.request({
    method: 'PUT',
    path: '/_cluster/settings',
    body: { persistent: { 'action.destructive_requires_name': false } },
  });
  const work = await mkdtemp(join(tmpdir(), 'smdoctor-export-pack-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  const pack = join(work, 'acme.yml');
  await writeFile(pack, PACK);
  const plan = join(work, 'plan.json');
  const audit = async (out?: string) => {
    const r = await runCli([
      'audit',
      '-i',
      lab.inventoryPath,
      '--pack',
      pack,
      '--format',
      'json',
      ...(out ? ['-o', out] : []),
    ]);
    if (r.code > 1) t.comment(r.err);
    return { code: r.code, report: JSON.parse(out ? await readFile(out, 'utf8') : r.out) as Report };
  };
  const before = await audit(plan);
  t.equal(before.code, 1, 'the pack finds the setting unset');
  t.same(
    before.report.clusters[0]!.checks.flatMap((k) => k.actions).map(
      (a) => `${a.type} ${'api_path' in a ? a.api_path : ''}`,
    ),
    ['put-settings /_cluster/settings'],
    'one put of the cluster settings is planned',
  );
  const dir = join(work, 'playbook');
  const ex = await exportPlan(plan, lab.inventoryPath, dir, '--pack', pack);
  if (ex.code !== 0) t.comment(ex.err);
  t.equal(ex.code, 0, 'exported');
  const site = await readFile(join(dir, 'site.yml'), 'utf8');
  const step = /- name: Step 1 \| put-settings[^\n]*\n(?: {6}[^\n]*\n)+/.exec(site)?.[0] ?? '';
  t.match(step, /when: not \(\(c1_cs\.json\.persistent/, '"already in place" reads the cluster settings');
  t.notMatch(step, /c1_is/, 'not the settings of the limits index');

  const run = await playbook(lab, lab.inventoryPath, dir);
  if (run.code !== 0) t.comment(run.out);
  t.equal(run.code, 0, 'the playbook runs');
  t.equal(run.changed, 1, 'the setting is made');
  t.equal((await audit()).code, 0, 'audit finds nothing after the playbook');

  const again = await playbook(lab, lab.inventoryPath, dir);
  if (again.code !== 0) t.comment(again.out);
  t.equal(again.code, 0, 'it runs again: the cluster-settings pin takes the plan’s own put');
  t.equal(again.changed, 0, 'a second run changes nothing');
});
