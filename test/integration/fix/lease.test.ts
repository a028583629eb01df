/** One fix per cluster: a lease in the cluster itself, refused while held, taken over once expired or broken. */
import t from 'tap';

// a lab and a full rolling restart: slow on a loaded machine
t.setTimeout(900_000);
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { parseReport } from '../../helpers/schema.ts';
import { fleetScenario, startLab } from '../../../lab/src/index.ts';
import { openCluster } from '../../../src/migrate/cluster.ts';
import { allocation, allocationLog, rollingLab } from '../../helpers/fix/rolling.ts';
import { LeaseLost, takeLease } from '../../../src/fix/lease.ts';
import { leaseApis, takeLeases } from '../../../src/fix/leases.ts';
import { leaseNote } from '../../../src/facts/lease-note.ts';
import type { ApiRequest, ApiResponse, ClusterApi } from '../../../src/cluster/types.ts';
import { fixArgs } from '../../helpers/fix-args.ts';

const LEASE = '/.smdoctor-lease/_doc/fix';
const alice = (expires: string) => ({
  holder: { user: 'alice', host: 'adminbox', pid: 4242, command: 'smdoctor fix --yes' },
  started_at: '2026-01-01T10:00:00.000Z',
  expires_at: expires,
});

t.test('two fixes 50 ms apart: one runs, the other is refused at once naming the holder', async (t) => {
  const { lab, api } = await rollingLab(t);
  const fix = (...extra: string[]) =>
    runCli(fixArgs(lab.inventoryPath, { timeout: 60, backupDir: join(lab.dir, 'b') }, ...extra), { cwd: '/tmp' });
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

  // the cluster is healthy now: a leftover allocation setting gives fix something to do again (and a lease to take)
  const leftover = () =>
    api.request({
      method: 'PUT',
      path: '/_cluster/settings',
      body: { persistent: { 'cluster.routing.allocation.enable': 'primaries' } },
    });
  await leftover();
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
  await leftover();
  await api.request({
    method: 'PUT',
    path: LEASE,
    querystring: { refresh: 'true' },
    body: alice('2020-01-01T00:00:00.000Z'),
  });
  // taken over only after this machine watched it unrenewed for a whole period (shortened here)
  const expired = await runCli(fixArgs(lab.inventoryPath, { backupDir: join(lab.dir, 'b') }), {
    cwd: '/tmp',
    deps: { leases: (o) => takeLeases({ ...o, ttlMs: 1500 }) },
  });
  t.equal(expired.code, 0, expired.err);
  t.match(expired.err, /has expired by this machine's clock; watching it for 2s/);
  t.match(expired.err, /took over the unrenewed lease of alice@adminbox/);
});

/**
 * A cluster API that keeps one document and answers as OpenSearch does to op_type=create and if_seq_no. `onGet` runs
 * before each GET of the document (another machine renewing it, say); `health` is the lease index's health.
 */
function leaseApi(
  start: unknown | null,
  o: { fail?: number; onGet?: (api: { doc: unknown; seq: number }) => void; health?: Record<string, unknown> } = {},
): ClusterApi & { doc: unknown; seq: number; log: string[] } {
  const api = {
    url: 'https://x:9200',
    doc: start,
    seq: start ? 1 : 0,
    log: [] as string[],
    async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
      const ans = (statusCode: number, body: unknown) => ({ statusCode, body }) as ApiResponse<T>;
      api.log.push(`${req.method} ${req.path}`);
      if (req.path === '/.smdoctor-lease') return ans(200, { acknowledged: true });
      if (req.path === '/_cluster/health/.smdoctor-lease') {
        const h = o.health ?? { status: 'green', initializing_shards: 0, unassigned_shards: 0 };
        return ans(h.status === 'green' ? 200 : 408, h);
      }
      if (o.fail) return ans(o.fail, { error: { type: 'cluster_manager_not_discovered_exception' } });
      if (req.method === 'GET') {
        o.onGet?.(api);
        return api.doc ? ans(200, { _source: api.doc, _seq_no: api.seq, _primary_term: 1 }) : ans(404, {});
      }
      const q = req.querystring ?? {};
      if (req.method === 'DELETE') {
        if (q.if_seq_no !== undefined && q.if_seq_no !== api.seq) return ans(409, {});
        api.doc = null;
        return ans(200, {});
      }
      if (q.op_type === 'create' && api.doc) return ans(409, { error: { type: 'version_conflict_engine_exception' } });
      if (q.if_seq_no !== undefined && q.if_seq_no !== api.seq) return ans(409, {});
      api.doc = req.body;
      return ans(q.op_type ? 201 : 200, { _seq_no: ++api.seq, _primary_term: 1 });
    },
    async close() {},
  };
  return api;
}

/** This machine's clocks: the wall clock at `wall`, a monotonic one that only the fake sleep moves. */
function clocks(wall: string) {
  const c = { mono: 0, slept: 0 };
  return {
    c,
    o: {
      ttlMs: 60_000,
      now: () => Date.parse(wall) + c.mono,
      clock: () => c.mono,
      sleep: async (ms: number) => {
        c.mono += ms;
        c.slept += ms;
      },
      activeSecs: 5,
    },
  };
}

const me = { user: 'bob', host: 'b', pid: 1, command: 'smdoctor fix' };

t.test('taking the lease: created, busy, unrenewed, broken, of another shape, undecidable', async (t) => {
  const cases: Array<{
    name: string;
    doc: unknown;
    force?: boolean;
    fail?: number;
    renewAfter?: number;
    deleteAfter?: number;
    health?: Record<string, unknown>;
    want: Record<string, unknown>;
    /** Monotonic ms the newcomer watched before deciding. */
    watched?: number;
  }> = [
    {
      name: 'free',
      doc: null,
      want: { kind: 'held', doc: { holder: me, expires_at: '2026-06-01T00:01:00.000Z', ttl_seconds: 60 } },
    },
    { name: 'live by its own expiry', doc: alice('2999-01-01T00:00:00Z'), want: { kind: 'busy' }, watched: 0 },
    {
      // the holder's clock is 10 minutes behind: its lease looks expired here, but it renews it every quarter period
      name: 'expired by this clock, renewed while watched',
      doc: alice('2026-05-31T23:51:00.000Z'),
      renewAfter: 3,
      want: { kind: 'busy', doc: { holder: { user: 'alice' } } },
    },
    {
      name: 'unrenewed for a whole period by this monotonic clock',
      doc: alice('2020-01-01T00:00:00Z'),
      want: { kind: 'held', tookOver: /^alice@adminbox pid 4242/ },
      watched: 60_000,
    },
    {
      // the exported play renews only between steps, and says how long it may go without renewing
      name: 'a holder that declares a longer period is watched that long',
      doc: { ...alice('2020-01-01T00:00:00Z'), ttl_seconds: '1200' },
      want: { kind: 'held', tookOver: /^alice@adminbox/ },
      watched: 1_200_000,
    },
    {
      name: 'a declared period is bounded: a day at most',
      doc: { ...alice('2020-01-01T00:00:00Z'), ttl_seconds: 999_999_999 },
      want: { kind: 'held' },
      watched: 86_400_000,
    },
    {
      name: 'deleted while watched (its holder ended)',
      doc: alice('2020-01-01T00:00:00Z'),
      deleteAfter: 2,
      want: { kind: 'held', doc: { holder: me } },
    },
    {
      name: '--break-lease: at once',
      doc: alice('2999-01-01T00:00:00Z'),
      force: true,
      want: { kind: 'held', tookOver: /^alice@adminbox/ },
      watched: 0,
    },
    {
      name: 'a document of another shape is refused, naming the field',
      doc: { owner: 'someone', until: 'tomorrow' },
      want: {
        kind: 'error',
        why: /GET \/\.smdoctor-lease\/_doc\/fix answered an unexpected shape: field holder .*not a lease smdoctor wrote.*--break-lease/,
      },
      watched: 0,
    },
    {
      name: 'a document of another shape, --break-lease',
      doc: { holder: 'x' },
      force: true,
      want: { kind: 'held', tookOver: 'a document not in the lease shape' },
    },
    {
      name: 'no cluster manager',
      doc: null,
      fail: 503,
      want: { kind: 'error', why: /503 cluster_manager_not_discovered/ },
    },
    {
      name: "the lease index's replica still recovering",
      doc: null,
      health: { status: 'yellow', initializing_shards: 1, unassigned_shards: 0, timed_out: true },
      want: {
        kind: 'error',
        why: /lease index \.smdoctor-lease is yellow, not green, after 5s \(1 initializing, 0 unassigned\).*nothing was changed/,
      },
    },
  ];
  for (const k of cases) {
    const { c, o } = clocks('2026-06-01T00:00:00Z');
    let gets = 0;
    const api = leaseApi(k.doc, {
      ...(k.fail ? { fail: k.fail } : {}),
      ...(k.health ? { health: k.health } : {}),
      onGet: (a) => {
        gets++;
        if (gets === k.renewAfter) a.seq++;
        if (gets === k.deleteAfter) a.doc = null;
      },
    });
    t.match(await takeLease(api, me, { ...o, ...(k.force ? { force: true } : {}) }), k.want, k.name);
    if (k.watched !== undefined) t.equal(c.slept, k.watched, `${k.name}: watched ${k.watched} ms`);
    if (k.want.kind !== 'held') t.notMatch(api.doc, { holder: me }, `${k.name}: not taken`);
  }
});

t.test('a lease lost while held stops its cluster; a lease of another shape never crashes', async (t) => {
  const warnings: string[] = [];
  const o = { timeout: 5, warn: (m: string) => warnings.push(m), ttlMs: 200 };
  const api = leaseApi(null);
  const leases = await leaseApis([{ url: 'https://x:9200', api }], o, me);
  const lost = leases.lost('https://x:9200')!;
  t.equal(lost.aborted, false);
  await new Promise((r) => setTimeout(r, 120));
  t.equal(lost.aborted, false, 'renewed, still ours');
  // another run breaks it (--break-lease elsewhere): the next renewal answers 409
  api.doc = alice('2999-01-01T00:00:00Z');
  api.seq += 5;
  // the next renewal (every 50 ms) sees it; a busy machine may take longer
  for (let i = 0; i < 200 && !lost.aborted; i++) await new Promise((r) => setTimeout(r, 25));
  t.equal(lost.aborted, true, 'lost');
  t.ok(lost.reason instanceof LeaseLost);
  t.match(lost.reason.message, /lease lost: another run broke or took it over/);
  t.match(warnings.join('\n'), /the fix lease was lost/);
  await leases.release();
  t.match(api.doc, { holder: { user: 'alice' } }, "the other run's lease is left alone");

  // a document of another shape: refused clearly, and nothing of ours left behind
  const odd = leaseApi({ owner: 'x' });
  const refused = await leaseApis([{ url: 'https://x:9200', api: odd }], o, me);
  t.match(refused.states.get('https://x:9200'), { kind: 'error', why: /field holder/ });
  await refused.release();
  t.same(odd.doc, { owner: 'x' });
  const broke = await leaseApis([{ url: 'https://x:9200', api: odd }], { ...o, force: true }, me);
  t.match(broke.states.get('https://x:9200'), { kind: 'held' });
  t.match(warnings.at(-1), /broke the lease of a document not in the lease shape/);
  await broke.release();
  t.equal(odd.doc, null, 'released');
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
  const { api } = await openCluster({ inventory: lab.inventoryPath, timeout: 60 }, process.cwd(), {}, () => undefined);
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
