import t from 'tap';
import { applyCluster, plannedActions } from '../../../src/fix/apply.ts';
import type { ActionOutcome } from '../../../src/fix/outcome.ts';
import type { Action, ClusterReport } from '../../../src/model/index.ts';
import { NODES, deepFreeze, fakeApi, fakeEnv, fakeHost, ok, planned, type Log } from '../../helpers/fix/fakes.ts';

function report(actions: Action[][]): ClusterReport {
  return {
    api_url: 'https://10.0.0.1:9200',
    name: 'lab',
    nodes: NODES,
    notes: [],
    checks: actions.map((a, i) => ({
      id: 'master-plugins',
      order: i + 1,
      status: 'fail',
      reason: 'x',
      findings: [],
      actions: a,
    })),
  };
}

const ALL = [
  { ip: '10.0.0.11', name: 'm1' },
  { ip: '10.0.0.12', name: 'm2' },
  { ip: '10.0.0.21', name: 'd1' },
];

/** A cluster where a restarted node is gone for one poll; `never` nodes never come back. */
function rollingApi(log: Log, never: string[] = []) {
  const gone = new Map<string, number>();
  return fakeApi(log, (req) => {
    if (req.path === '/_cat/nodes') {
      const rows = ALL.filter((n) => !never.includes(n.name) && (gone.get(n.name) ?? 0) === 0);
      for (const [k, v] of gone) if (v > 0) gone.set(k, v - 1);
      return ok(rows);
    }
    if (req.path === '/_cluster/health') return ok({ status: 'green' });
    return ok({ acknowledged: true });
  });
}

t.test(
  'rolling restarts: pre-flight, then the next step starts only after the node is back and the cluster settled',
  async (t) => {
    const log: Log = [];
    const hosts = ['m1', 'm2'].map((h) => fakeHost(h, log));
    const c = deepFreeze(
      report([
        [planned({ type: 'restart-service', host: 'm1', service: 'opensearch', command: 'restart m1' })],
        [
          planned({ type: 'remove-plugin', host: 'm2', command: 'remove sm-sigma' }),
          planned({ type: 'restart-service', host: 'm2', service: 'opensearch', command: 'restart m2' }),
        ],
      ]),
    );
    const r = await applyCluster(c, fakeEnv(log, rollingApi(log), hosts));
    t.match(r, { api_url: c.api_url, refused: [], failed: false, interrupted: false });
    const seq = log.filter((l) => l.startsWith('exec') || l.startsWith('api GET /_cluster/health'));
    // the pre-flight first; then each restart waits for green with no shard moving
    t.same(seq, [
      'api GET /_cluster/health?',
      'exec m1 restart m1',
      'api GET /_cluster/health?wait_for_status=green&wait_for_no_relocating_shards=true&wait_for_no_initializing_shards=true&timeout=1s',
      'exec m2 remove sm-sigma',
      'exec m2 restart m2',
      'api GET /_cluster/health?wait_for_status=green&wait_for_no_relocating_shards=true&wait_for_no_initializing_shards=true&timeout=1s',
    ]);
    // one outcome per planned action, in the plan's order, numbered in the order they ran
    t.same(r.actions, [
      { status: 'done', step: 1, reason: 'rejoined; cluster settled' },
      { status: 'done', step: 2 },
      { status: 'done', step: 3, reason: 'rejoined; cluster settled' },
    ]);
    t.same(
      plannedActions(c).map((a) => a.status),
      ['planned', 'planned', 'planned'],
      'the plan is only read',
    );
  },
);

t.test('the pre-flight refuses: every action refused with its reason, nothing runs, the plan untouched', async (t) => {
  const log: Log = [];
  const hosts = ['m1', 'm2'].map((h) => fakeHost(h, log));
  const c = deepFreeze(
    report([
      [planned({ type: 'restart-service', host: 'm1', service: 'opensearch', command: 'restart m1' })],
      [
        planned({ type: 'remove-plugin', host: 'm2', command: 'remove sm-sigma' }),
        planned({ type: 'put-settings', method: 'PUT', api_path: '/x/_settings', body: {} }),
      ],
    ]),
  );
  const before = structuredClone(c);
  const r = await applyCluster(c, fakeEnv(log, rollingApi(log, ['m1']), hosts, { timeout: 1 }));
  t.match(r, {
    failed: true,
    interrupted: false,
    refused: [/^pre-flight: master-eligible node m1 is not in the cluster/],
  });
  t.equal(r.refused.length, 1);
  t.match(r.actions, [
    { status: 'refused', step: 1, reason: /^pre-flight: master-eligible node m1 is not in the cluster/ },
    { status: 'refused', step: 2, reason: /^pre-flight/ },
    { status: 'refused', step: 3, reason: /^pre-flight/ },
  ]);
  t.notOk(
    log.some((l) => l.startsWith('exec') || l.startsWith('api PUT')),
    'nothing ran',
  );
  t.same(c, before, 'the cluster report is as it was');
});

t.test('a step that throws fails and the rest is skipped; an abort skips the rest as interrupted', async (t) => {
  const log: Log = [];
  const c = report([
    [
      planned({ type: 'remove-plugin', host: 'gone', command: 'x' }),
      planned({ type: 'put-settings', method: 'PUT', api_path: '/x', body: {} }),
    ],
  ]);
  const failed = await applyCluster(c, fakeEnv(log, rollingApi(log), []));
  t.same(failed.actions, [
    { status: 'failed', step: 1, error: 'no fake host gone' },
    {
      status: 'skipped',
      cause: 'earlier-failure',
      step: 2,
      reason: 'an earlier step failed: 1. remove-plugin on gone: no fake host gone',
    },
  ]);
  t.match(failed, { failed: true, interrupted: false, refused: [] });
  t.equal(log.filter((l) => l.startsWith('api PUT')).length, 0, 'nothing after the failure ran');

  const stop = new AbortController();
  const d = report([
    [
      planned({ type: 'put-settings', method: 'PUT', api_path: '/x', body: {} }),
      planned({ type: 'put-settings', method: 'PUT', api_path: '/y', body: {} }),
    ],
  ]);
  const told: Array<[string | undefined, ActionOutcome['status'], number]> = [];
  const r = await applyCluster(d, fakeEnv(log, rollingApi(log), [], { signal: stop.signal }), {
    onStep: (a, o, n) => {
      told.push([a.api_path, o.status, n]);
      stop.abort();
    },
  });
  t.match(r, { failed: false, interrupted: true });
  t.match(r.actions, [
    { status: 'done', step: 1 },
    { status: 'skipped', cause: 'interrupted', step: 2, reason: /interrupted/ },
  ]);
  t.same(
    told,
    [
      ['/x', 'done', 1],
      ['/y', 'skipped', 2],
    ],
    'each step is told with its outcome',
  );
  t.equal(plannedActions(d).length, 2, 'the plan still plans both');
});

t.test('a failed rolling restart of a data node: the allocation restore and the state left are outcomes', async (t) => {
  for (const restoreFails of [false, true]) {
    const log: Log = [];
    const host = fakeHost('d1', log, {}, () => ({ code: 1, stdout: '', stderr: 'Job for opensearch.service failed' }));
    let puts = 0;
    // the setting as the cluster holds it: a failed PUT leaves it as it was
    let current = 'all';
    const api = fakeApi(log, (req) => {
      if (req.path === '/_cat/nodes') return ok(ALL);
      if (req.path === '/_cluster/health') return ok({ status: 'green', unassigned_shards: 0, initializing_shards: 0 });
      if (req.path === '/_cluster/settings' && req.method === 'GET')
        return ok({ persistent: { 'cluster.routing.allocation.enable': current }, transient: {} });
      if (req.path === '/_cluster/settings' && puts++ > 0 && restoreFails) return { statusCode: 500, body: {} };
      if (req.path === '/_cluster/settings')
        current = (req.body as { persistent: Record<string, string> }).persistent['cluster.routing.allocation.enable']!;
      return ok({ acknowledged: true });
    });
    const c = deepFreeze(
      report([
        [
          planned({ type: 'restart-service', host: 'd1', service: 'opensearch', command: 'restart d1' }),
          planned({ type: 'put-settings', method: 'PUT', api_path: '/x', body: {} }),
        ],
      ]),
    );
    const r = await applyCluster(c, fakeEnv(log, api, [host]));
    const setting = { persistent: 'all', transient: null };
    const left = 'cluster left green with 0 unassigned, 0 initializing shards';
    t.match(r, {
      failed: true,
      left,
      allocation: restoreFails
        ? { restored: false, setting, error: /allocation could NOT be restored to persistent all, transient unset/ }
        : { restored: true, setting },
    });
    t.match(r.actions[0], {
      status: 'failed',
      step: 1,
      error: restoreFails
        ? /^exit 1: Job for opensearch.service failed; allocation could NOT be restored.*left with persistent primaries, transient unset, as read back/
        : `exit 1: Job for opensearch.service failed; allocation restored (persistent all, transient unset, as read back); ${left}`,
      left,
      allocation: { restored: !restoreFails },
    });
    t.match(r.actions[1], {
      status: 'skipped',
      cause: 'earlier-failure',
      reason: /^an earlier step failed: 1\. restart/,
    });
  }
});
