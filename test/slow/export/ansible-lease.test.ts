/**
 * The playbook holds the fix lease as fix does, under real ansible-playbook: a lease held by another run fails the
 * play before any change; while the play rolls the cluster, `smdoctor fix` is refused; the play's lease is gone after.
 */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { startLab } from '../../../lab/src/index.ts';
import { openCluster } from '../../../src/migrate/cluster.ts';
import { LEASE_PATH, type LeaseDoc } from '../../../src/facts/lease-note.ts';
import { allocation } from '../../helpers/fix/rolling.ts';
import { runCli } from '../../helpers/cli.ts';
import { audit, exportPlan, playbook, statuses } from '../../helpers/export/ansible.ts';
import { requestAs } from '../../helpers/request-as.ts';

// a lab, three audits, two playbook runs and a fix: slow on a loaded machine
t.setTimeout(900_000);

const alice: LeaseDoc = {
  holder: { user: 'alice', host: 'adminbox', pid: 4242, command: 'smdoctor fix --yes' },
  started_at: '2026-01-01T10:00:00.000Z',
  expires_at: '2999-01-01T10:00:00.000Z',
};

t.test('the play takes, renews and releases the fix lease', async (t) => {
  // each node is away 3 s: the play holds the lease long enough for a fix to try
  const lab = await startLab({ scenario: 'rolling', restartDelayMs: 3000 });
  const { api } = await openCluster({ inventory: lab.inventoryPath, timeout: 60 }, process.cwd(), {}, () => undefined);
  const work = await mkdtemp(join(tmpdir(), 'smdoctor-export-'));
  t.teardown(async () => {
    await api.close();
    await lab.stop();
    await rm(work, { recursive: true, force: true });
  });
  const inv = lab.inventoryPath;
  const plan = join(work, 'plan.json');
  const before = await audit(inv, plan);
  t.equal(before.code, 1, 'restarts are planned');
  const dir = join(work, 'playbook');
  t.equal((await exportPlan(plan, inv, dir)).code, 0, 'exported');

  // another run holds the lease: the play fails before any change, naming it, and leaves it alone
  await api.request({ method: 'PUT', path: `/${LEASE_PATH.split('/')[1]}` });
  const put = await api.request({
    method: 'PUT',
    path: LEASE_PATH,
    querystring: { op_type: 'create', refresh: 'true' },
    body: alice,
  });
  t.equal(put.statusCode, 201);
  const held = await playbook(lab, inv, dir);
  t.not(held.code, 0, 'the play fails');
  t.match(held.out, /lease \/\.smdoctor-lease\/_doc\/fix held by .*user\W+alice.*nothing was changed/);
  t.equal(held.changed, 0, 'nothing changed');
  t.notMatch(held.out, /TASK \[Pins \|/, 'not even the pins were read');
  t.same(statuses((await audit(inv)).report), statuses(before.report), 'every finding is still there');
  const still = await requestAs<{ _source: LeaseDoc }>(api, { method: 'GET', path: LEASE_PATH });
  t.same(still.body._source, alice, "the other run's lease is untouched");
  await api.request({ method: 'DELETE', path: LEASE_PATH, querystring: { refresh: 'true' } });

  // the play runs; a fix started while it holds the lease is refused, having changed nothing
  const running = playbook(lab, inv, dir);
  let doc: LeaseDoc | undefined;
  for (let i = 0; i < 600 && !doc; i++) {
    const r = await requestAs<{ _source?: LeaseDoc }>(api, { method: 'GET', path: LEASE_PATH });
    if (r.statusCode === 200) doc = r.body._source;
    else await new Promise((r) => setTimeout(r, 100));
  }
  t.match(
    doc,
    { holder: { command: /ansible-playbook/, pid: 0 }, started_at: /^\d{4}-\d\d-\d\dT/ },
    'the play holds it',
  );
  t.ok(Date.parse(doc!.expires_at) > Date.now() + 60_000, 'for longer than a step');
  const refused = await runCli(['fix', '-i', inv, '--yes', '--backup-dir', join(work, 'backups')], { cwd: '/tmp' });
  t.equal(refused.code, 3, refused.err);
  t.match(refused.err, /is being fixed by \S+ pid 0 \(ansible-playbook site\.yml \(smdoctor export ansible\)\)/);
  t.match(refused.err, /nothing was changed/);
  const run = await running;
  if (run.code !== 0) t.comment(run.out);
  t.equal(run.code, 0, 'the play runs to the end');
  t.match(run.out, /TASK \[Lease \| renew the fix lease before step 3/, 'renewed between steps');
  t.match(run.out, /TASK \[Lease \| release the fix lease, whatever happened\][^\n]*\nok: \[localhost\]/);
  t.equal((await api.request({ method: 'GET', path: LEASE_PATH })).statusCode, 404, 'released at the end');
  t.same(await allocation(api), { persistent: null, transient: null }, 'allocation as it was');
  t.equal((await audit(inv)).code, 0, 'audit finds nothing');
});
