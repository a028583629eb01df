/** applyPlan only reads the plan: what became of it comes back as outcomes, whatever happened in each cluster. */
import t from 'tap';
import { applyPlan, type ApplyPlanOptions } from '../../../src/fix/run.ts';
import type { HostConfig, Inventory } from '../../../src/inventory/types.ts';
import type { Report } from '../../../src/model/index.ts';
import { NODES, deepFreeze, fakeApi, fakeHost, memoryBackup, ok, planned, type Log } from '../../helpers/fix/fakes.ts';

const GREEN = 'https://10.0.0.1:9200';
const RED = 'https://10.0.9.1:9200';
const ORPHAN = 'https://10.0.8.1:9200';

const check = (actions: Report['clusters'][number]['checks'][number]['actions']) => ({
  id: 'limits-index-replicas' as const,
  order: 5,
  status: 'fail' as const,
  reason: 'x',
  findings: [],
  actions,
});

/** Three clusters: one where every step runs (a data node's rolling restart too), one its pre-flight refuses, one
 * no selected host belongs to (nothing can start). */
function plan(): Report {
  return {
    schema_version: 3,
    tool: 'smdoctor',
    version: '0',
    mode: 'audit',
    clusters: [
      {
        api_url: GREEN,
        name: 'green',
        nodes: NODES,
        notes: [],
        actions: [planned({ type: 'reset-allocation', method: 'PUT', api_path: '/_cluster/settings', body: {} })],
        checks: [
          check([
            planned({ type: 'put-settings', method: 'PUT', api_path: '/i1/_settings', body: { big: 2n ** 60n } }),
            planned({ type: 'restart-service', host: 'd1', service: 'opensearch', command: 'restart d1' }),
          ]),
        ],
      },
      {
        api_url: RED,
        name: 'red',
        nodes: [{ host: 'r1', address: '10.0.9.11', name: 'r1', roles: ['cluster_manager'], reachable: true }],
        notes: [],
        checks: [
          check([planned({ type: 'restart-service', host: 'r1', service: 'opensearch', command: 'restart r1' })]),
        ],
      },
      {
        api_url: ORPHAN,
        name: 'orphan',
        nodes: [],
        notes: [],
        checks: [check([planned({ type: 'put-settings', method: 'PUT', api_path: '/i2/_settings', body: {} })])],
      },
    ],
    summary: { clusters: 3, hosts: 4, unreachable: 0, checks_failed: 3 },
  };
}

function options(log: Log): ApplyPlanOptions {
  const healthy = fakeApi(log, (req) => {
    if (req.path === '/_cat/nodes')
      return ok([{ ip: '10.0.0.21', name: 'd1', 'node.roles': 'd', cluster_manager: '-' }]);
    if (req.path === '/_cluster/health') return ok({ status: 'green' });
    if (req.path === '/_cluster/settings' && req.method === 'GET')
      return ok({ persistent: { 'cluster.routing.allocation.enable': 'primaries' }, transient: {} });
    return ok({ acknowledged: true });
  });
  const red = fakeApi(log, (req) => (req.path === '/_cluster/health' ? ok({ status: 'red' }) : ok([])));
  let clock = 0;
  return {
    inventory: {} as Inventory,
    hosts: ['d1', 'r1'],
    timeout: 5,
    env: {},
    backup: memoryBackup(log),
    deps: {
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
      },
      hostConfig: (_inv, name) => ({ name }) as HostConfig,
      clustersOf: () => [
        { apiUrl: GREEN, hosts: ['d1'] },
        { apiUrl: RED, hosts: ['r1'] },
      ],
      api: (cfg) => (cfg.name === 'r1' ? red : healthy),
      connect: async (cfg) => fakeHost(cfg.name, log),
    },
  };
}

t.test('a deep-frozen plan: applying it never writes to it, and the outcomes say what happened', async (t) => {
  const log: Log = [];
  const p = deepFreeze(plan());
  const out = await applyPlan(p, options(log));
  t.ok(log.includes('exec d1 restart d1'), 'the steps did run');
  t.match(out, {
    interrupted: false,
    clusters: [
      {
        api_url: GREEN,
        failed: false,
        refused: [],
        actions: [
          { status: 'done', step: 1 },
          { status: 'done', reason: 'acknowledged' },
          { status: 'done', reason: 'rejoined; allocation restored; cluster settled' },
        ],
        allocation: { restored: true, setting: { persistent: 'primaries', transient: null } },
      },
      { api_url: RED, failed: true, refused: [/^pre-flight: health is red/], actions: [{ status: 'refused' }] },
      {
        api_url: ORPHAN,
        failed: true,
        refused: [],
        actions: [{ status: 'failed', error: `no inventory host belongs to ${ORPHAN}` }],
      },
    ],
  });
});

t.test('the plan compares equal to a copy taken before applying', async (t) => {
  const p = plan();
  const before = structuredClone(p);
  await applyPlan(p, options([]));
  t.same(p, before, 'statuses, reasons, errors and refusals are not written into the plan');
  t.equal(p.fix, undefined, 'no fix summary on the plan');
});
