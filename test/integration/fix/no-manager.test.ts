/** A cluster without an elected manager answers 503, as the engine does: fix's pre-flight refuses it, never as green. */
import t from 'tap';

// a lab and a fix: slow on a loaded machine
t.setTimeout(900_000);
import { rm, writeFile } from 'node:fs/promises';
import { noElectionFile } from '../../../lab/src/timing.ts';
import { allocation, allocationLog, fix, rollingLab } from '../../helpers/fix/rolling.ts';
import { applyCluster } from '../../../src/fix/apply.ts';
import { restartService } from '../../../src/fix/restart.ts';
import { NODES, fakeApi, fakeEnv, fakeHost, ok, planned, type Log } from '../../helpers/fix/fakes.ts';

// the engine's answer while no cluster manager is elected (reason null, as it sends it)
const NO_MANAGER = {
  statusCode: 503,
  body: {
    error: {
      root_cause: [{ type: 'cluster_manager_not_discovered_exception', reason: null }],
      type: 'cluster_manager_not_discovered_exception',
      reason: null,
    },
    status: 503,
  },
};

t.test('no manager can be elected: 503 cluster_manager_not_discovered_exception; fix refuses, names it', async (t) => {
  const { lab, api } = await rollingLab(t);
  await writeFile(noElectionFile(lab.dir), '');
  const h = await api.request({ method: 'GET', path: '/_cluster/health' });
  t.same(h, NO_MANAGER);
  t.equal((await api.request({ method: 'GET', path: '/_cat/nodes', querystring: { format: 'json' } })).statusCode, 503);
  const put = await api.request({
    method: 'PUT',
    path: '/_cluster/settings',
    body: { persistent: { 'cluster.routing.allocation.enable': 'primaries' } },
  });
  t.equal(put.statusCode, 503, 'the setting cannot be changed either');

  const r = await fix(lab.inventoryPath, lab.dir, '--timeout', '20');
  t.equal(r.code, 3, r.err);
  t.notMatch(r.err, /green/);
  t.match(r.out, /cluster_manager_not_discovered_exception/, 'the report names why');
  t.notMatch(await allocationLog(lab), /promote|recover/, 'no node was restarted');

  // elected again: the same fix goes through
  await rm(noElectionFile(lab.dir));
  t.same(await allocation(api), { persistent: null, transient: null });
  const ok = await fix(lab.inventoryPath, lab.dir, '--timeout', '60');
  t.equal(ok.code, 0, ok.err);
});

t.test('the pre-flight: no elected manager is "not ready", refused and named', async (t) => {
  const log: Log = [];
  const api = fakeApi(log, () => NO_MANAGER);
  const c = {
    api_url: 'https://10.0.0.1:9200',
    name: 'c',
    nodes: NODES,
    notes: [],
    checks: [
      {
        id: 'master-plugins' as const,
        order: 4,
        status: 'fail' as const,
        reason: '',
        findings: [],
        actions: [planned({ type: 'restart-service', host: 'd1', service: 'opensearch', command: 'restart d1' })],
      },
    ],
  };
  const r = await applyCluster(c, fakeEnv(log, api, [fakeHost('d1', log)], { timeout: 1 }));
  t.match(r.refused, [/^pre-flight: GET \/_cluster\/health: HTTP 503 cluster_manager_not_discovered_exception/]);
  t.notOk(
    log.some((l) => l.startsWith('exec') || l.startsWith('api PUT')),
    'nothing ran',
  );
});

t.test(
  'the waits: while no manager is elected, keep waiting; then the node is back and the cluster green',
  async (t) => {
    const log: Log = [];
    let n = 0;
    const nodes = [{ ip: '10.0.0.21', name: 'd1' }];
    // the only manager restarts with the node: a few 503s on every wait, then answers again
    const api = fakeApi(log, (req) => {
      if (req.path === '/_cluster/settings' && req.method === 'GET') return ok({ persistent: {}, transient: {} });
      if (req.path === '/_cluster/settings' || req.path === '/_flush') return ok({ acknowledged: true });
      if (n++ < 4) return NO_MANAGER;
      if (req.path === '/_cat/nodes') return ok(nodes);
      return ok({ status: 'green', number_of_nodes: 1, relocating_shards: 0, initializing_shards: 0 });
    });
    const r = await restartService(
      planned({ type: 'restart-service', host: 'd1', service: 'opensearch', command: 'restart d1' }),
      fakeEnv(log, api, [fakeHost('d1', log)]),
    );
    t.match(r, { status: 'done', reason: 'rejoined; allocation restored; cluster settled' });
  },
);
