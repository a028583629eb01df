/**
 * The rolling restart under ansible-playbook, as fix does it, on one lab: a restart that fails stops the play with the
 * allocation setting back exactly as it was; the play holds the fix lease as fix does (a lease held by another run fails
 * it before any change, `smdoctor fix` is refused while it rolls, the lease is gone after); it restarts one node at a
 * time, the elected manager last, allocation held so no shard relocates.
 */
import t, { type Test } from 'tap';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { LEASE_PATH, type LeaseDoc } from '../../../src/facts/lease-note.ts';
import { KEY, allocation, allocationLog, inventoryWith, rollingLab } from '../../helpers/fix/rolling.ts';
import { runCli } from '../../helpers/cli.ts';
import { audit, exportPlan, playbook, statuses } from '../../helpers/export/ansible.ts';
import { requestAs } from '../../helpers/request-as.ts';

// a lab, five audits, three playbook runs and a fix: slow on a loaded machine
t.setTimeout(900_000);

// nodes away 600 ms (past the lab's 200 ms delayed_timeout): the fix meets the lease because the play is held
// still (SIGSTOP) while the fix runs, not because the restarts are slow
const { lab, api } = await rollingLab(t);

const alice: LeaseDoc = {
  holder: { user: 'alice', host: 'adminbox', pid: 4242, command: 'smdoctor fix --yes' },
  started_at: '2026-01-01T10:00:00.000Z',
  expires_at: '2999-01-01T10:00:00.000Z',
};

/** The processes of the ansible-playbook run of `site` (its workers are forks of it, with its command line). */
async function playProcesses(site: string): Promise<number[]> {
  const found: number[] = [];
  for (const p of await readdir('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    const cmd = (await readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '')).split('\0');
    if (cmd.some((a) => a.endsWith('ansible-playbook')) && cmd.includes(site)) found.push(Number(p));
  }
  return found;
}

/** Sends sig to each pid; a worker that ended since it was listed is no error (it stopped the rest half-way). */
function signalEach(pids: number[], sig: NodeJS.Signals): void {
  for (const pid of pids)
    try {
      process.kill(pid, sig);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
    }
}

async function workDir(t: Pick<Test, 'teardown'>): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), 'smdoctor-export-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  return work;
}

// first: nothing is restarted, so the lab is as it was for the next test once the transient value is gone again
t.test('a failed restart: the always: section puts persistent and transient back, the play fails', async (t) => {
  // a transient value too: it must come back as it was, not be dropped
  await api.request({ method: 'PUT', path: '/_cluster/settings', body: { transient: { [KEY]: 'all' } } });
  t.teardown(() => api.request({ method: 'PUT', path: '/_cluster/settings', body: { transient: { [KEY]: null } } }));
  const inv = await inventoryWith(lab, 'n2', 'false');
  const work = await workDir(t);
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

t.test('the play takes, renews and releases the fix lease; one node at a time, the elected manager last', async (t) => {
  const inv = lab.inventoryPath;
  const work = await workDir(t);
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
  // the play is held still while the fix runs (SIGSTOP to its processes): on a busy machine the fix's own audit could
  // otherwise end after the play's last restart, find nothing to do and never meet the lease
  const play = await playProcesses(join(dir, 'site.yml'));
  t.ok(play.length > 0, 'the play found');
  let refused: Awaited<ReturnType<typeof runCli>>;
  try {
    signalEach(play, 'SIGSTOP');
    refused = await runCli(['fix', '-i', inv, '--yes', '--backup-dir', join(work, 'backups')], { cwd: '/tmp' });
  } finally {
    // always, or a play left stopped holds the file until tap's timeout
    signalEach(play, 'SIGCONT');
  }
  t.equal(refused.code, 3, refused.err);
  t.match(refused.err, /is being fixed by \S+ pid 0 \(ansible-playbook site\.yml \(smdoctor export ansible\)\)/);
  t.match(refused.err, /nothing was changed/);
  const run = await running;
  if (run.code !== 0) t.comment(run.out);
  t.equal(run.code, 0, 'the play runs to the end');
  t.match(run.out, /TASK \[Lease \| renew the fix lease before step 3/, 'renewed between steps');
  t.match(run.out, /TASK \[Lease \| release the fix lease, whatever happened\][^\n]*\nok: \[localhost\]/);
  t.equal((await api.request({ method: 'GET', path: LEASE_PATH })).statusCode, 404, 'released at the end');
  const order = [...run.out.matchAll(/^TASK \[Node (\S+) \| restart opensearch\]/gm)].map((m) => m[1]);
  t.same(order, ['n2', 'n3', 'n1'], 'n1, the elected manager, last');
  t.match(run.out, /TASK \[Node n1 \| hold allocation at primaries/);
  t.notMatch(await allocationLog(lab), /relocate/, 'no shard relocated');
  t.same(await allocation(api), { persistent: null, transient: null }, 'the setting is unset again');
  t.equal((await audit(inv)).code, 0, 'audit finds nothing');
});
