import t from 'tap';
import { putDocument, putSettings, verifyShards } from '../../../src/fix/steps-api.ts';
import { errorBody, fakeApi, fakeEnv, ok, planned, type Log } from '../../helpers/fix/fakes.ts';

const PATH = '/.sm_sme_limits_user/_doc/base_limit';

t.test('put-document: create when absent, concurrency when replacing', async (t) => {
  const cases = [
    {
      name: 'created',
      action: { op_type: 'create' as const },
      answer: { statusCode: 201, body: { result: 'created' } },
      qs: { op_type: 'create' },
      status: 'done',
      text: /created/,
    },
    {
      name: 'appeared meanwhile',
      action: { op_type: 'create' as const },
      answer: errorBody(409, 'version_conflict_engine_exception'),
      qs: { op_type: 'create' },
      status: 'failed',
      text: /appeared since the audit: re-run audit/,
    },
    {
      name: 'replaced',
      action: { if_seq_no: 4, if_primary_term: 1 },
      answer: ok({ result: 'updated' }),
      qs: { if_seq_no: 4, if_primary_term: 1 },
      status: 'done',
      text: /updated/,
    },
    {
      name: 'changed meanwhile',
      action: { if_seq_no: 4, if_primary_term: 1 },
      answer: errorBody(409, 'version_conflict_engine_exception'),
      qs: { if_seq_no: 4, if_primary_term: 1 },
      status: 'failed',
      text: /changed since the audit/,
    },
    {
      name: 'server error',
      action: {},
      answer: errorBody(500, 'illegal_state_exception', 'boom'),
      qs: {},
      status: 'failed',
      text: /HTTP 500 illegal_state_exception: boom/,
    },
  ];
  for (const c of cases) {
    const log: Log = [];
    const api = fakeApi(log, () => c.answer);
    const r = await putDocument(
      planned({ type: 'put-document', method: 'PUT', api_path: PATH, body: { a: 1 }, ...c.action }),
      fakeEnv(log, api, []),
    );
    t.equal(r.status, c.status, c.name);
    t.match(r.error ?? r.reason, c.text, c.name);
    t.same(api.requests[0]?.querystring, c.qs, `${c.name}: query`);
    t.same(api.requests[0]?.body, { a: 1 }, `${c.name}: body`);
  }
});

t.test('put-settings: acknowledged or not', async (t) => {
  for (const [answer, status] of [
    [ok({ acknowledged: true }), 'done'],
    [ok({ acknowledged: false }), 'failed'],
    [errorBody(400, 'illegal_argument_exception'), 'failed'],
  ] as const) {
    const log: Log = [];
    const r = await putSettings(
      planned({ type: 'put-settings', method: 'PUT', api_path: '/.sm_sme_limits_user/_settings', body: {} }),
      fakeEnv(
        log,
        fakeApi(log, () => answer),
        [],
      ),
    );
    t.equal(r.status, status);
  }
});

const nodes = [
  { name: 'm1', 'node.roles': 'cluster_manager' },
  { name: 'd1', 'node.roles': 'data,ingest' },
  { name: 'd2', 'node.roles': 'data_hot' },
];
const shard = (node: string | null, state: string) => ({
  index: '.sm_sme_limits_user',
  shard: '0',
  prirep: 'r',
  state,
  node,
});
const VERIFY = planned({ type: 'verify-shards', method: 'GET', api_path: '/_cat/shards/.sm_sme_limits_user?v=true' });

t.test('verify-shards: polls until every data node holds a started copy', async (t) => {
  const log: Log = [];
  let round = 0;
  const api = fakeApi(log, (req) => {
    if (req.path === '/_cat/nodes') return ok(nodes);
    if (req.querystring?.v) return ok('index shard prirep state node\n.sm_sme_limits_user 0 p STARTED d1\n');
    round++;
    return ok(
      round < 3
        ? [shard('d1', 'STARTED'), shard('d2', 'INITIALIZING')]
        : [shard('d1', 'STARTED'), shard('d2', 'STARTED')],
    );
  });
  const r = await verifyShards(VERIFY, fakeEnv(log, api, []));
  t.equal(r.status, 'done');
  t.match(r.output, /STARTED d1/);
  t.equal(log.filter((l) => l.startsWith('sleep')).length, 2, 'waited between polls');
  t.ok(log.includes('api GET /_cat/shards/.sm_sme_limits_user?format=json'));
});

t.test('verify-shards: a data node that never gets a copy fails at the deadline', async (t) => {
  const log: Log = [];
  const api = fakeApi(log, (req) =>
    req.path === '/_cat/nodes'
      ? ok(nodes)
      : req.querystring?.v
        ? ok('table')
        : ok([shard('d1', 'STARTED'), shard(null, 'UNASSIGNED')]),
  );
  const r = await verifyShards(VERIFY, fakeEnv(log, api, [], { timeout: 2 }));
  t.equal(r.status, 'failed');
  t.match(r.error, /after 10s: no started copy on d2/);
  t.equal(r.output, 'table');
  t.equal(log.filter((l) => l.startsWith('sleep')).length, 10, 'polled until 5x timeout');
});

t.test('put-settings of cluster.routing.allocation.enable is refused when applied, without a request', async (t) => {
  for (const body of [
    { persistent: { 'cluster.routing.allocation.enable': 'none' } },
    { transient: { cluster: { routing: { allocation: { enable: 'none' } } } } },
  ]) {
    const log: Log = [];
    const r = await putSettings(
      planned({ type: 'put-settings', method: 'PUT', api_path: '/_cluster/settings/', body }),
      fakeEnv(
        log,
        fakeApi(log, () => ok({ acknowledged: true })),
        [],
      ),
    );
    t.equal(r.status, 'failed');
    t.match(r.error, /refused: cluster\.routing\.allocation\.enable is set by the plan itself/);
    t.same(log, [], 'nothing sent');
  }
});
