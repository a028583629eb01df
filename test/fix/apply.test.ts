import t from 'tap';
import { applyCluster, plannedActions } from '../../src/fix/apply.ts';
import type { Action, ClusterReport } from '../../src/model/index.ts';
import { NODES, fakeApi, fakeEnv, fakeHost, ok, planned, type Log } from './fakes.ts';

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
    const c = report([
      [planned({ type: 'restart-service', host: 'm1', service: 'opensearch', command: 'restart m1' })],
      [
        planned({ type: 'remove-plugin', host: 'm2', command: 'remove sm-sigma' }),
        planned({ type: 'restart-service', host: 'm2', service: 'opensearch', command: 'restart m2' }),
      ],
    ]);
    const r = await applyCluster(c, fakeEnv(log, rollingApi(log), hosts));
    t.same(r, { failed: false, interrupted: false });
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
    t.same(
      c.checks.flatMap((k) => k.actions.map((a) => a.status)),
      ['done', 'done', 'done'],
    );
  },
);

t.test('the first failure stops the cluster: the rest is skipped with the reason', async (t) => {
  const log: Log = [];
  const hosts = ['m1', 'm2'].map((h) => fakeHost(h, log));
  const c = report([
    [planned({ type: 'restart-service', host: 'm1', service: 'opensearch', command: 'restart m1' })],
    [
      planned({ type: 'remove-plugin', host: 'm2', command: 'remove sm-sigma' }),
      planned({ type: 'put-settings', method: 'PUT', api_path: '/x/_settings', body: {} }),
    ],
  ]);
  const r = await applyCluster(c, fakeEnv(log, rollingApi(log, ['m1']), hosts, { timeout: 1 }));
  t.same(r, { failed: true, interrupted: false });
  // m1 is master-eligible and not in the cluster: the pre-flight refuses before anything changes
  const [first, second, third] = c.checks.flatMap((k) => k.actions);
  t.match(first, { status: 'skipped', reason: /^pre-flight: master-eligible node m1 is not in the cluster/ });
  t.match(second, { status: 'skipped' });
  t.match(third, { status: 'skipped' });
  t.match(c.refused, [/pre-flight/]);
  t.notOk(
    log.some((l) => l.startsWith('exec m2') || l.startsWith('api PUT')),
    'nothing after the failure ran',
  );
});

t.test('a step that throws (transport trouble) fails, and an abort skips the rest', async (t) => {
  const log: Log = [];
  const c = report([
    [
      planned({ type: 'remove-plugin', host: 'gone', command: 'x' }),
      planned({ type: 'put-settings', method: 'PUT', api_path: '/x', body: {} }),
    ],
  ]);
  await applyCluster(c, fakeEnv(log, rollingApi(log), []));
  t.match(c.checks[0]!.actions[0], { status: 'failed', error: 'no fake host gone' });

  const stop = new AbortController();
  const d = report([
    [
      planned({ type: 'put-settings', method: 'PUT', api_path: '/x', body: {} }),
      planned({ type: 'put-settings', method: 'PUT', api_path: '/y', body: {} }),
    ],
  ]);
  const r = await applyCluster(d, fakeEnv(log, rollingApi(log), []), {
    onStep: () => stop.abort(),
    signal: stop.signal,
  });
  t.same(r, { failed: false, interrupted: true });
  t.same(
    d.checks[0]!.actions.map((a) => a.status),
    ['done', 'skipped'],
  );
  t.match(d.checks[0]!.actions[1], { reason: /interrupted/ });
  t.same(plannedActions(d), [], 'nothing left planned');
});
