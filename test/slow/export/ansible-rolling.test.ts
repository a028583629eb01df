/**
 * The rolling restart under ansible-playbook, as fix does it: the elected manager last, allocation held so no shard
 * relocates; and a restart that fails: the play stops, the allocation setting back exactly as it was.
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { KEY, allocation, allocationLog, inventoryWith, rollingLab } from '../../helpers/fix/rolling.ts';
import { audit, exportPlan, playbook } from '../../helpers/export/ansible.ts';

// a lab and a playbook run with a rolling restart: slow on a loaded machine
t.setTimeout(900_000);

t.test('the rolling restart: one node at a time, the elected manager last, no shard relocated', async (t) => {
  const { lab, api } = await rollingLab(t);
  const work = await mkdtemp(join(tmpdir(), 'smdoctor-export-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  const plan = join(work, 'plan.json');
  t.equal((await audit(lab.inventoryPath, plan)).code, 1);
  const dir = join(work, 'playbook');
  t.equal((await exportPlan(plan, lab.inventoryPath, dir)).code, 0, 'exported');
  const run = await playbook(lab, lab.inventoryPath, dir);
  if (run.code !== 0) t.comment(run.out);
  t.equal(run.code, 0, 'the playbook runs');
  const order = [...run.out.matchAll(/^TASK \[Node (\S+) \| restart opensearch\]/gm)].map((m) => m[1]);
  t.same(order, ['n2', 'n3', 'n1'], 'n1, the elected manager, last');
  t.match(run.out, /TASK \[Node n1 \| hold allocation at primaries/);
  t.notMatch(await allocationLog(lab), /relocate/, 'no shard relocated');
  t.same(await allocation(api), { persistent: null, transient: null }, 'the setting is unset again');
  t.equal((await audit(lab.inventoryPath)).code, 0, 'audit finds nothing');
});

t.test('a failed restart: the always: section puts persistent and transient back, the play fails', async (t) => {
  const { lab, api } = await rollingLab(t);
  // a transient value too: it must come back as it was, not be dropped
  await api.request({ method: 'PUT', path: '/_cluster/settings', body: { transient: { [KEY]: 'all' } } });
  const inv = await inventoryWith(lab, 'n2', 'false');
  const work = await mkdtemp(join(tmpdir(), 'smdoctor-export-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  const plan = join(work, 'plan.json');
  t.equal((await audit(inv, plan)).code, 1);
  const dir = join(work, 'playbook');
  t.equal((await exportPlan(plan, inv, dir)).code, 0, 'exported');
  const run = await playbook(lab, inv, dir);
  t.not(run.code, 0, 'the play fails');
  t.match(
    run.out,
    /TASK \[Node n2 \| restart opensearch\][^\n]*\n[^\n]*fatal: \[localhost -> n2/,
    'at the restart of n2',
  );
  t.match(
    run.out,
    /TASK \[Node n2 \| put cluster\.routing\.allocation\.enable back exactly as it was\][^\n]*\nchanged: \[localhost\]/,
    'the setting is put back in always:',
  );
  t.notMatch(run.out, /TASK \[Node n3 \| restart opensearch\]/, 'no other node is restarted');
  t.same(await allocation(api), { persistent: null, transient: 'all' });
});
