import t from 'tap';
import { Client } from '@opensearch-project/opensearch';
import { startLab, call } from '../../helpers/api-fixture.ts';

const lab = await startLab(t);
const get = (path: string, querystring: Record<string, unknown> = {}) =>
  call(lab, { method: 'GET', path, querystring });

t.test('GET / banner', async (t) => {
  const r = await get('/');
  t.match(r, {
    statusCode: 200,
    body: {
      name: 'master-1',
      cluster_name: 'lab-cluster',
      cluster_uuid: String,
      version: { distribution: 'opensearch', number: /^2\.\d+\.\d+$/ },
      tagline: String,
    },
  });
  t.match(r.headers['content-type'], 'application/json; charset=UTF-8');
});

t.test('_cat/nodes: text and json, only up nodes, roles and manager marks', async (t) => {
  const text = await get('/_cat/nodes', { v: true });
  t.equal(text.headers['content-type'], 'text/plain; charset=UTF-8');
  t.type(text.body, 'string');
  const lines = (text.body as string).trimEnd().split('\n');
  t.match(
    lines[0],
    /^ip +heap\.percent ram\.percent cpu load_1m load_5m load_15m node\.role node\.roles +cluster_manager name/,
  );
  t.equal(lines.length, 6, 'header + the five up nodes');
  t.notMatch(text.body, /data-3/, 'a restarting node is not in the cluster');

  const json = await get('/_cat/nodes', { format: 'json' });
  t.equal(json.body.length, 5);
  const m1 = json.body.find((r: any) => r.name === 'master-1');
  t.match(m1, {
    ip: /^127\./,
    'heap.percent': /^\d+$/,
    'ram.percent': /^\d+$/,
    cpu: /^\d+$/,
    load_1m: /^\d\.\d\d$/,
    'node.role': 'm',
    'node.roles': 'cluster_manager',
    cluster_manager: '*',
  });
  t.match(
    json.body.find((r: any) => r.name === 'data-1'),
    { 'node.role': 'di', 'node.roles': 'data,ingest', cluster_manager: '-' },
  );
  for (const row of json.body) for (const v of Object.values(row)) t.type(v, 'string');
  const again = await get('/_cat/nodes', { format: 'json' });
  t.same(again.body, json.body, 'numbers are stable');

  const aliased = await get('/_cat/nodes', { format: 'json', h: 'name,master,r,nope' });
  t.same(Object.keys(aliased.body[0]), ['name', 'master', 'r']);
});

t.test('_cat/nodeattrs and _cat/plugins', async (t) => {
  const attrs = await get('/_cat/nodeattrs', { format: 'json' });
  t.same(attrs.body.map((r: any) => `${r.node}:${r.attr}=${r.value}`).sort(), [
    'data-1:node_with_sme=true',
    'data-1:temp=hot',
    'master-1:node_with_sme=true',
  ]);
  t.match(attrs.body[0], { node: String, host: /^127\./, ip: /^127\./, attr: String, value: String });
  const plugins = await get('/_cat/plugins', { format: 'json' });
  t.same(plugins.body, [
    { name: 'master-1', component: 'sm-job-scheduler', version: '2.11.1.0' },
    { name: 'data-1', component: 'sme-re', version: '5.0.0' },
  ]);
  const text = await get('/_cat/plugins');
  t.match(text.body, /^master-1 sm-job-scheduler 2\.11\.1\.0\ndata-1 +sme-re +5\.0\.0 *\n$/);
});

t.test('_cat/shards and _cat/indices', async (t) => {
  const shards = await get('/_cat/shards/.sm_sme_limits_user', { format: 'json' });
  t.same(shards.body.map((r: any) => r.node).sort(), ['data-1', 'data-2'], '0-all: a copy on every up data node');
  t.match(shards.body[0], {
    index: '.sm_sme_limits_user',
    shard: '0',
    prirep: /^[pr]$/,
    state: 'STARTED',
    docs: '1',
    store: /^\d+(\.\d+)?[kmg]?b$/,
    ip: /^127\./,
  });
  const text = await get('/_cat/shards/.sm_sme_limits_user', { v: true });
  t.match(text.body, /^index +shard prirep state +docs store ip +node/);
  const all = await get('/_cat/shards', { format: 'json' });
  t.ok(all.body.some((r: any) => r.index === 'logs'));

  lab.store.putSettings('logs', { number_of_replicas: 2 });
  const un = await get('/_cat/shards/logs', { format: 'json' });
  t.match(
    un.body.find((r: any) => r.state === 'UNASSIGNED'),
    { prirep: 'r', ip: null, node: null, docs: null },
  );
  const idx = await get('/_cat/indices/logs', { format: 'json' });
  t.match(idx.body, [
    {
      health: 'yellow',
      status: 'open',
      index: 'logs',
      uuid: String,
      pri: '1',
      rep: '2',
      'docs.count': '1',
      'docs.deleted': '0',
      'store.size': String,
      'pri.store.size': String,
    },
  ]);
  lab.store.putSettings('logs', { number_of_replicas: 1 });
  const missing = await get('/_cat/shards/nope');
  t.match(missing, {
    statusCode: 404,
    body: { error: { type: 'index_not_found_exception', reason: 'no such index [nope]' }, status: 404 },
  });
});

t.test('GET /_nodes', async (t) => {
  const r = await get('/_nodes');
  t.match(r.body, { _nodes: { total: 5, successful: 5, failed: 0 }, cluster_name: 'lab-cluster' });
  const nodes = Object.values(r.body.nodes) as any[];
  t.equal(nodes.length, 5);
  t.match(
    nodes.find((n) => n.name === 'master-1'),
    {
      host: /^127\./,
      ip: /^127\./,
      version: String,
      roles: ['cluster_manager'],
      attributes: { node_with_sme: 'true' },
      plugins: [{ name: 'sm-job-scheduler', version: '2.11.1.0' }],
    },
  );
  const local = await get('/_nodes/_local');
  t.same(
    Object.values(local.body.nodes).map((n: any) => n.name),
    ['master-1'],
  );
});

t.test('cluster health and its waits', async (t) => {
  const h = await get('/_cluster/health');
  t.match(h, {
    statusCode: 200,
    body: {
      cluster_name: 'lab-cluster',
      status: 'green',
      timed_out: false,
      number_of_nodes: 5,
      number_of_data_nodes: 2,
      active_primary_shards: 3,
      active_shards: 6,
      relocating_shards: 0,
      initializing_shards: 0,
      unassigned_shards: 0,
    },
  });
  const cases: Array<[Record<string, string>, number]> = [
    [{ wait_for_status: 'yellow', timeout: '1s' }, 200],
    [{ wait_for_nodes: '5' }, 200],
    [{ wait_for_nodes: '>=4' }, 200],
    [{ wait_for_nodes: 'ge(5)' }, 200],
    [{ wait_for_nodes: 'lt(5)', timeout: '200ms' }, 408],
    [{ wait_for_nodes: '6', timeout: '200ms' }, 408],
  ];
  for (const [q, status] of cases) {
    const r = await get('/_cluster/health', q);
    t.match(r, { statusCode: status, body: { timed_out: status === 408, status: 'green' } }, JSON.stringify(q));
  }
  lab.store.putSettings('logs', { number_of_replicas: 3 });
  const red = await get('/_cluster/health', { wait_for_status: 'green', timeout: '300ms' });
  t.match(red, { statusCode: 408, body: { status: 'yellow', timed_out: true, unassigned_shards: 2 } });
  // The wait notices a change made while it polls.
  const pending = get('/_cluster/health', { wait_for_status: 'green', timeout: '5s' });
  setTimeout(() => lab.store.putSettings('logs', { number_of_replicas: 1 }), 200);
  t.match(await pending, { statusCode: 200, body: { status: 'green', timed_out: false } });
  t.match(await get('/_cluster/health', { timeout: 'soon' }), { statusCode: 400, body: { status: 400 } });
});

t.test('a node that comes back changes membership and shard placement', async (t) => {
  const d3 = lab.view.all.find((n) => n.name === 'data-3')!;
  d3.state = 'up';
  t.teardown(() => {
    d3.state = 'restarting';
  });
  const h = await get('/_cluster/health');
  t.match(h.body, { number_of_nodes: 6, number_of_data_nodes: 3 });
  const shards = await get('/_cat/shards/.sm_sme_limits_user', { format: 'json' });
  t.same(shards.body.map((r: any) => r.node).sort(), ['data-1', 'data-2', 'data-3']);
});

t.test('auth, unknown paths and methods', async (t) => {
  for (const auth of [undefined, { username: 'admin', password: 'wrong' }]) {
    const c = new Client({ node: lab.url, ssl: { ca: lab.ca }, maxRetries: 0, ...(auth ? { auth } : {}) });
    const r = await call({ ...lab, client: c }, { method: 'GET', path: '/_cat/nodes' });
    await c.close();
    // the security plugin's HTTPBasicAuthenticator: a plain-text body and its realm, for missing and wrong credentials
    t.strictSame({ status: r.statusCode, body: r.body }, { status: 401, body: 'Unauthorized' });
    t.equal(r.headers['www-authenticate'], 'Basic realm="OpenSearch Security"');
    t.match(r.headers['content-type'], /^text\/plain/);
  }
  // RestController's own answers: a bare error string (with the query string in the uri), not an exception object
  const nohandler = await call(lab, { method: 'GET', path: '/_cat/nope/deeper', querystring: { v: true } });
  t.strictSame(nohandler.statusCode, 400);
  t.strictSame(nohandler.body, { error: 'no handler found for uri [/_cat/nope/deeper?v=true] and method [GET]' });
  const wrong = await call(lab, { method: 'DELETE', path: '/_cluster/health' });
  t.strictSame(wrong.statusCode, 405);
  t.strictSame(wrong.body, {
    error: 'Incorrect HTTP method for uri [/_cluster/health] and method [DELETE], allowed: [GET]',
    status: 405,
  });
  t.equal(wrong.headers.allow, 'GET');
});
