/** One fix per cluster: a lease in the cluster itself, refused while held, taken over once expired or broken. */
import t from 'tap';

// a lab and a full rolling restart: slow on a loaded machine
t.setTimeout(900_000);
import { join } from 'node:path';
import { runCli } from '../helpers/cli.ts';
import { parseReport } from '../helpers/schema.ts';
import { fleetScenario, startLab } from '../../lab/src/index.ts';
import { openCluster } from '../../src/migrate/cluster.ts';
import { allocation, allocationLog, rollingLab } from './rolling-helpers.ts';
import { takeLease } from '../../src/fix/lease.ts';
import { leaseNote } from '../../src/facts/lease-note.ts';
import type { ApiRequest, ApiResponse, ClusterApi } from '../../src/cluster/types.ts';

const LEASE = '/.smdoctor-lease/_doc/fix';
const alice = (expires: string) => ({
  holder: { user: 'alice', host: 'adminbox', pid: 4242, command: 'smdoctor fix --yes' },
  started_at: '2026-01-01T10:00:00.000Z',
  expires_at: expires,
});

t.test('two fixes 50 ms apart: one runs, the other is refused at once naming the holder', async (t) => {
  const { lab, api } = await rollingLab(t);
  const fix = (...extra: string[]) =>
    runCli(
      [
        'fix',
        '-i',
        lab.inventoryPath,
        '--yes',
        '--format',
        'json',
        '--timeout',
        '60',
        '--backup-dir',
        join(lab.dir, 'b'),
        ...extra,
      ],
      { cwd: '/tmp' },
    );
  const first = fix();
  await new Promise((r) => setTimeout(r, 50));
  const second = fix();
  const runs = await Promise.all([first, second]);
  const refused = runs.filter((r) => /is being fixed by/.test(r.err));
  const ran = runs.filter((r) => !/is being fixed by/.test(r.err));
  t.equal(refused.length, 1, runs.map((r) => r.err).join('\n---\n'));
  t.equal(refused[0]!.code, 3);
  t.match(refused[0]!.err, /lease: \S+ is being fixed by \S+@\S+ pid \d+ \(smdoctor .*\) since \d{4}-\d\d-\d\dT/);
  t.notMatch(refused[0]!.err, /restart-service|allocation/, 'the refused run changed nothing');
  t.equal(ran[0]!.code, 0, ran[0]!.err);
  t.same(await allocation(api), { persistent: null, transient: null }, 'allocation back to unset');
  t.notMatch(await allocationLog(lab), /relocate/);
  t.equal((await api.request({ method: 'GET', path: LEASE })).statusCode, 404, 'released at the end');

  // a live lease of another operator: audit reports it, fix refuses, --break-lease takes it
  await api.request({
    method: 'PUT',
    path: LEASE,
    querystring: { refresh: 'true' },
    body: alice('2999-01-01T00:00:00.000Z'),
  });
  const audit = await runCli(['audit', '-i', lab.inventoryPath, '--format', 'json'], { cwd: '/tmp' });
  t.match(audit.out, /smdoctor fix is running on this cluster: lease held by alice@adminbox pid 4242/);
  parseReport(audit.out);
  const busy = await fix();
  t.equal(busy.code, 3);
  t.match(busy.err, /is being fixed by alice@adminbox pid 4242 \(smdoctor fix --yes\) since 2026-01-01T10:00:00.000Z/);
  const broken = await fix('--break-lease');
  t.equal(broken.code, 0, broken.err);
  t.match(broken.err, /broke the lease of alice@adminbox/);
  t.equal((await api.request({ method: 'GET', path: LEASE })).statusCode, 404);

  // an expired lease (its holder died): taken over with a warning
  await api.request({
    method: 'PUT',
    path: LEASE,
    querystring: { refresh: 'true' },
    body: alice('2020-01-01T00:00:00.000Z'),
  });
  const expired = await fix();
  t.equal(expired.code, 0, expired.err);
  t.match(expired.err, /took over the expired lease of alice@adminbox/);
});

/** A cluster API that keeps one document and answers as OpenSearch does to op_type=create and if_seq_no. */
function leaseApi(start: unknown | null, fail?: number): ClusterApi & { doc: unknown } {
  let seq = start ? 1 : 0;
  const api = {
    url: 'https://x:9200',
    doc: start,
    async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
      const ans = (statusCode: number, body: unknown) => ({ statusCode, body }) as ApiResponse<T>;
      if (req.path === '/.smdoctor-lease') return ans(200, { acknowledged: true });
      if (fail) return ans(fail, { error: { type: 'cluster_manager_not_discovered_exception' } });
      if (req.method === 'GET')
        return api.doc ? ans(200, { _source: api.doc, _seq_no: seq, _primary_term: 1 }) : ans(404, {});
      const q = req.querystring ?? {};
      if (q.op_type === 'create' && api.doc) return ans(409, { error: { type: 'version_conflict_engine_exception' } });
      if (q.if_seq_no !== undefined && q.if_seq_no !== seq) return ans(409, {});
      api.doc = req.body;
      return ans(q.op_type ? 201 : 200, { _seq_no: ++seq, _primary_term: 1 });
    },
    async close() {},
  };
  return api;
}

t.test('taking the lease: created, busy, expired, broken, undecidable', async (t) => {
  const me = { user: 'bob', host: 'b', pid: 1, command: 'smdoctor fix' };
  const o = { ttlMs: 60_000, now: () => Date.parse('2026-06-01T00:00:00Z') };
  t.match(await takeLease(leaseApi(null), me, o), {
    kind: 'held',
    doc: { holder: me, expires_at: '2026-06-01T00:01:00.000Z' },
  });
  t.match(await takeLease(leaseApi(alice('2999-01-01T00:00:00Z')), me, o), {
    kind: 'busy',
    doc: { holder: { user: 'alice' } },
  });
  const old = leaseApi(alice('2020-01-01T00:00:00Z'));
  t.match(await takeLease(old, me, o), { kind: 'held', tookOver: { holder: { user: 'alice' } } });
  t.match(old.doc, { holder: me });
  t.match(await takeLease(leaseApi(alice('2999-01-01T00:00:00Z')), me, { ...o, force: true }), {
    kind: 'held',
    tookOver: { holder: { user: 'alice' } },
  });
  t.match(await takeLease(leaseApi(null, 503), me, o), { kind: 'error', why: /503 cluster_manager_not_discovered/ });
});

t.test("audit's note: a live lease, an expired one, none for this very process", async (t) => {
  const found = (d: unknown) => ({ statusCode: 200, body: { _source: d } });
  const now = Date.parse('2026-06-01T00:00:00Z');
  t.match(leaseNote(found(alice('2999-01-01T00:00:00Z')), now), { kind: 'note', message: /fix is running/ });
  t.match(leaseNote(found(alice('2020-01-01T00:00:00Z')), now), { message: /expired .* left by alice/ });
  t.equal(leaseNote(found(alice('2999-01-01T00:00:00Z')), now, { host: 'adminbox', pid: 4242 }), null);
  t.equal(leaseNote({ statusCode: 404, body: {} }, now), null);
});

t.test('migrate --apply takes the same lease: refused while a fix holds it, released after', async (t) => {
  const lab = await startLab({ scenario: fleetScenario(1, 2) });
  t.teardown(() => lab.stop());
  const { api } = await openCluster({ inventory: lab.inventoryPath }, process.cwd(), {}, () => undefined);
  t.teardown(() => api.close());
  const cli = (...args: string[]) =>
    runCli(['migrate', 'jobs', '-i', lab.inventoryPath, '--format', 'json', ...args], { tty: false });
  await api.request({
    method: 'PUT',
    path: LEASE,
    querystring: { refresh: 'true' },
    body: alice('2999-01-01T00:00:00.000Z'),
  });
  const busy = await cli('--apply', '--yes', '--backup-dir', t.testdir());
  t.equal(busy.code, 3);
  t.match(busy.err, /lease: \S+ is being fixed by alice@adminbox pid 4242/);
  t.equal((await cli()).code, 1, 'the jobs still need their rewrite: nothing was changed');
  await api.request({ method: 'DELETE', path: LEASE });
  const applied = await cli('--apply', '--yes', '--backup-dir', t.testdir());
  t.equal(applied.code, 0, applied.err);
  t.equal((await api.request({ method: 'GET', path: LEASE })).statusCode, 404, 'released at the end');
});
