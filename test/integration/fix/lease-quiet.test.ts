/**
 * The lease leaves alone what it protects: a cluster with nothing to do sees only reads, the lease index's recovering
 * replica never trips the pre-flight, and a run whose lease another run took stops there, allocation restored.
 */
import t from 'tap';

// labs and full rolling restarts: slow on a loaded machine
t.setTimeout(900_000);
import { join } from 'node:path';
import type { Test } from 'tap';
import { runCli } from '../../helpers/cli.ts';
import { parseReport } from '../../helpers/schema.ts';
import { fleetScenario, startLab, type Lab } from '../../../lab/src/index.ts';
import { openCluster } from '../../../src/migrate/cluster.ts';
import { applyPlan } from '../../../src/fix/run.ts';
import { takeLeases } from '../../../src/fix/leases.ts';
import type { ClusterApi } from '../../../src/cluster/types.ts';
import type { Report } from '../../../src/model/index.ts';
import type { RunDeps } from '../../../src/cli/context.ts';
import { allocation } from '../../helpers/fix/rolling.ts';
import { requestAs } from '../../helpers/request-as.ts';
import { fixArgs } from '../../helpers/fix-args.ts';

const LEASE = '/.smdoctor-lease/_doc/fix';

async function lab(t: Test, scenario: Parameters<typeof startLab>[0]['scenario'], newCopyDelayMs = 0): Promise<Lab> {
  const l = await startLab({
    scenario,
    restartDelayMs: 600,
    delayedTimeoutMs: 200,
    recoveryDelayMs: 300,
    newCopyDelayMs,
  });
  t.teardown(() => l.stop());
  return l;
}

async function clusterApi(t: Test, l: Lab, limit?: string): Promise<ClusterApi> {
  const { api } = await openCluster(
    { inventory: l.inventoryPath, timeout: 60, ...(limit ? { limit } : {}) },
    process.cwd(),
    {},
    () => undefined,
  );
  t.teardown(() => api.close());
  return api;
}

const fix = (l: Lab, deps: Partial<RunDeps> = {}) =>
  runCli(fixArgs(l.inventoryPath, { timeout: 30, backupDir: join(l.dir, 'b') }), { cwd: '/tmp', deps });

t.test(
  "the first fix on a slow-recovering cluster: the lease index's replica is awaited, then the fix runs",
  async (t) => {
    // a new replica takes 3 s to recover: the lease index is yellow that long after fix creates it
    const l = await lab(t, 'rolling', 3000);
    const api = await clusterApi(t, l);
    const r = await fix(l);
    t.notMatch(r.err, /health is yellow/, 'the pre-flight did not see the lease index recovering');
    t.equal(r.code, 0, r.err);
    const actions = parseReport<Report>(r.out).clusters[0]!.checks.flatMap((c) => c.actions);
    t.ok(
      actions.filter((a) => a.type === 'restart-service').every((a) => a.status === 'done'),
      'every restart done',
    );
    const h = await requestAs<{ status: string }>(api, { method: 'GET', path: '/_cluster/health/.smdoctor-lease' });
    t.equal(h.body.status, 'green');
  },
);

t.test('a fleet: the healthy cluster sees only reads, no lease index; the one with work gets the lease', async (t) => {
  const l = await lab(t, fleetScenario(2, 3));
  const healthy = await clusterApi(t, l, 'c1-m1');
  const broken = await clusterApi(t, l, 'c2-m1');
  const r = await fix(l);
  t.equal(r.code, 0, r.err);
  const idx = await healthy.request({ method: 'GET', path: '/.smdoctor-lease' });
  t.equal(idx.statusCode, 404, 'no .smdoctor-lease index in the healthy cluster');
  t.match(idx.body, { error: { type: 'index_not_found_exception' } });
  t.equal((await broken.request({ method: 'GET', path: '/.smdoctor-lease' })).statusCode, 200, 'made where fix worked');
  t.equal((await broken.request({ method: 'GET', path: LEASE })).statusCode, 404, 'and released');
});

t.test('a lease another run takes over mid-fix stops the fix: no new step, allocation restored, exit 3', async (t) => {
  const l = await lab(t, 'rolling');
  const api = await clusterApi(t, l);
  let broken = false;
  const r = await fix(l, {
    // renewed every 200 ms, so the loss is seen while the next node restarts
    leases: (o) => takeLeases({ ...o, ttlMs: 800 }),
    apply: (plan, o) =>
      applyPlan(plan, {
        ...o,
        onStep: (cluster, action, step, outcome) => {
          o.onStep?.(cluster, action, step, outcome);
          if (broken || action.type !== 'restart-service') return;
          broken = true;
          // another operator's `fix --break-lease`
          void api.request({
            method: 'PUT',
            path: LEASE,
            querystring: { refresh: 'true' },
            body: {
              holder: { user: 'carol', host: 'other', pid: 7, command: 'smdoctor fix --break-lease' },
              started_at: new Date().toISOString(),
              expires_at: new Date(Date.now() + 120_000).toISOString(),
            },
          });
        },
      }),
  });
  t.equal(r.code, 3, r.err);
  t.match(r.err, /the fix lease was lost \(another run broke or took it over/);
  const restarts = parseReport<Report>(r.out)
    .clusters[0]!.checks.flatMap((c) => c.actions)
    .filter((a) => a.type === 'restart-service');
  t.equal(restarts.filter((a) => a.status === 'done').length, 1, 'only the restart before the loss was done');
  t.ok(
    restarts.some((a) => /lease lost/.test(JSON.stringify(a))),
    'the report says the lease was lost',
  );
  t.same(await allocation(api), { persistent: null, transient: null }, 'allocation restored');
  const doc = await requestAs<{ _source: { holder: { user: string } } }>(api, { method: 'GET', path: LEASE });
  t.equal(doc.body._source.holder.user, 'carol', "the other run's lease is left alone");
});
