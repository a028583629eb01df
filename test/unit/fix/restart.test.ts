import t from 'tap';
import { restartService } from '../../../src/fix/restart.ts';
import { errorBody, fakeApi, fakeEnv, fakeHost, ok, planned, type Log } from '../../helpers/fix/fakes.ts';
import type { ApiRequest } from '../../../src/cluster/types.ts';

const restart = (host: string, service = 'opensearch') =>
  planned({ type: 'restart-service', host, service, command: `systemctl restart ${service}` });
const ALL = [
  { ip: '10.0.0.11', name: 'm1' },
  { ip: '10.0.0.12', name: 'm2' },
  { ip: '10.0.0.21', name: 'd1' },
];

/** The node is gone for `gone` polls, then back; health answers 408 `slow` times once it is back. */
function cluster(gone: number, slow: number) {
  let catCalls = 0;
  let healthCalls = 0;
  return (req: ApiRequest) => {
    if (req.path === '/_cat/nodes') {
      catCalls++;
      if (catCalls === 1 && gone < 0) throw new Error('connect ECONNREFUSED');
      return ok(catCalls <= gone ? ALL.filter((n) => n.name !== 'm1') : ALL);
    }
    if (req.path === '/_cluster/health') {
      healthCalls++;
      return healthCalls <= slow
        ? { statusCode: 408, body: { status: 'red', number_of_nodes: 2, timed_out: true } }
        : ok({ status: 'green', number_of_nodes: 3 });
    }
    return errorBody(404, 'not_found');
  };
}

t.test('engine restart waits for the node to rejoin and the cluster to be green with no shard moving', async (t) => {
  const log: Log = [];
  const api = fakeApi(log, cluster(2, 1));
  const r = await restartService(restart('m1'), fakeEnv(log, api, [fakeHost('m1', log)]));
  t.match(r, { status: 'done', reason: 'rejoined; cluster settled' });
  t.equal(log[0], 'exec m1 systemctl restart opensearch', 'the command first');
  const health = api.requests.filter((q) => q.path === '/_cluster/health');
  t.equal(health.length, 2, '408 means keep waiting');
  t.match(health[0]!.querystring, {
    wait_for_status: 'green',
    wait_for_no_relocating_shards: 'true',
    wait_for_no_initializing_shards: 'true',
  });
  // two polls while m1 is away; a 408 already waited on the server, so no sleep after it
  t.equal(log.filter((l) => l.startsWith('sleep')).length, 2);
});

t.test('an unreachable API while the node restarts is waited out', async (t) => {
  const log: Log = [];
  const r = await restartService(restart('m1'), fakeEnv(log, fakeApi(log, cluster(-1, 0)), [fakeHost('m1', log)]));
  t.equal(r.status, 'done');
});

t.test('a node that never rejoins fails at 5x --timeout', async (t) => {
  const log: Log = [];
  const r = await restartService(
    restart('m1'),
    fakeEnv(log, fakeApi(log, cluster(1e9, 0)), [fakeHost('m1', log)], { timeout: 3 }),
  );
  t.equal(r.status, 'failed');
  t.match(r.error, /node m1 did not rejoin within 15s: node m1 is not in _cat\/nodes/);
});

t.test('a failing restart command fails without waiting', async (t) => {
  const log: Log = [];
  const host = fakeHost('m1', log, {}, () => ({ code: 1, stdout: '', stderr: 'Job for opensearch.service failed\n' }));
  const api = fakeApi(log, cluster(0, 0));
  const r = await restartService(restart('m1'), fakeEnv(log, api, [host]));
  t.match(r, { status: 'failed', error: /exit 1: Job for opensearch.service failed.*cluster left green/ });
  t.same(
    api.requests.map((q) => q.path),
    ['/_cluster/health'],
    'no wait: only how the cluster was left',
  );
});

t.test('the web application: the exit code decides, the cluster is not asked', async (t) => {
  for (const [code, status] of [
    [0, 'done'],
    [5, 'failed'],
  ] as const) {
    const log: Log = [];
    const api = fakeApi(log, cluster(0, 0));
    const r = await restartService(
      restart('web1', 'opensearch-dashboards'),
      fakeEnv(log, api, [fakeHost('web1', log, {}, () => ({ code, stdout: '', stderr: '' }))]),
    );
    t.equal(r.status, status);
    t.equal(api.requests.length, 0);
  }
});
