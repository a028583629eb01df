/**
 * Every lab response smdoctor reads, validated against OpenSearch's official API specification
 * (test/fixtures/opensearch-spec: response schemas bundled from opensearch-project/opensearch-api-specification,
 * Apache-2.0, at the commit named in responses.json), in the order the requests are made.
 */
import t from 'tap';
import { startLab, call, type Req } from '../../helpers/api-fixture.ts';
import { specCommit, specErrors } from '../../../../test/helpers/opensearch-spec.ts';

const lab = await startLab(t);
const LIMITS = '/.sm_sme_limits_user';
type Step = [what: string, req: Req, status: number, schema: string];
const get = (path: string, querystring: Record<string, unknown> = {}): Req => ({ method: 'GET', path, querystring });
const send = (method: string, path: string, body?: unknown, querystring: Record<string, unknown> = {}): Req =>
  ({ method, path, querystring, ...(body === undefined ? {} : { body }) }) as Req;

// what smdoctor asks (audit, fix, migrate), then what an SRE asks beside it
const steps: Step[] = [
  ['root', get('/'), 200, 'info@200'],
  [
    'audit: nodes',
    get('/_cat/nodes', { format: 'json', h: 'ip,name,node.roles,cluster_manager' }),
    200,
    'cat.nodes@200',
  ],
  ['nodes, default columns', get('/_cat/nodes', { format: 'json' }), 200, 'cat.nodes@200'],
  ['audit: node attributes', get('/_cat/nodeattrs', { format: 'json' }), 200, 'cat.nodeattrs@200'],
  ['audit: plugins', get('/_cat/plugins', { format: 'json' }), 200, 'cat.plugins@200'],
  ['audit: base limit document', get(`${LIMITS}/_doc/base_limit`), 200, 'get@200'],
  ['a missing document', get(`${LIMITS}/_doc/nope`), 404, 'get@404'],
  ['a missing index', get('/nope/_doc/x'), 404, 'error'],
  ['audit: limits settings', get(`${LIMITS}/_settings`), 200, 'indices.get_settings@200'],
  ['flat settings', get(`${LIMITS}/_settings`, { flat_settings: true }), 200, 'indices.get_settings@200'],
  ['audit: limits shards', get(`/_cat/shards${LIMITS}`, { format: 'json' }), 200, 'cat.shards@200'],
  ['audit: health', get('/_cluster/health'), 200, 'cluster.health@200'],
  [
    'fix: health wait',
    get('/_cluster/health', {
      wait_for_status: 'green',
      wait_for_no_relocating_shards: true,
      wait_for_no_initializing_shards: true,
      timeout: '1s',
    }),
    200,
    'cluster.health@200',
  ],
  ['audit: cluster settings', get('/_cluster/settings', { flat_settings: true }), 200, 'cluster.get_settings@200'],
  [
    'fix: allocation',
    send('PUT', '/_cluster/settings', { persistent: { 'cluster.routing.allocation.enable': 'primaries' } }),
    200,
    'cluster.put_settings@200',
  ],
  [
    'fix: allocation back',
    send('PUT', '/_cluster/settings', { persistent: { 'cluster.routing.allocation.enable': null } }),
    200,
    'cluster.put_settings@200',
  ],
  ['fix: flush', send('POST', '/_flush'), 200, 'indices.flush@200'],
  [
    'fix: limits settings',
    send('PUT', `${LIMITS}/_settings`, { index: { auto_expand_replicas: '0-all' } }),
    200,
    'indices.put_settings@200',
  ],
  ['fix: create a document', send('PUT', '/.conformance/_doc/a', { x: 1 }, { op_type: 'create' }), 201, 'index@201'],
  [
    'fix: create again is a conflict',
    send('PUT', '/.conformance/_doc/a', { x: 1 }, { op_type: 'create' }),
    409,
    'error',
  ],
  [
    'fix: correct a document',
    send('PUT', '/.conformance/_doc/a', { x: 2 }, { if_seq_no: 0, if_primary_term: 1 }),
    200,
    'index@200',
  ],
  [
    'a stale correction',
    send('PUT', '/.conformance/_doc/a', { x: 3 }, { if_seq_no: 0, if_primary_term: 1 }),
    409,
    'error',
  ],
  ['_create', send('PUT', '/.conformance/_create/b', { x: 1 }), 201, 'create@201'],
  ['delete', send('DELETE', '/.conformance/_doc/b'), 200, 'delete@200'],
  ['delete a missing document', send('DELETE', '/.conformance/_doc/b'), 404, 'delete@404'],
  ['migrate: refresh', send('POST', '/.conformance/_refresh'), 200, 'indices.refresh@200'],
  [
    'migrate: macros',
    send('POST', '/.sm_jsc_jobs/_search', { size: 10000, track_total_hits: true, query: { match_all: {} } }),
    200,
    'search@200',
  ],
  ['migrate: mappings', get('/logs/_mapping'), 200, 'indices.get_mapping@200'],
  ['migrate: field mappings', get('/logs/_mapping/field/message,author.id'), 200, 'indices.get_field_mapping@200'],
  ['count', send('POST', '/.sm_jsc_jobs/_count', { query: { match_all: {} } }), 200, 'count@200'],
  ['an unknown query', send('POST', '/logs/_search', { query: { nope: {} } }), 400, 'error'],
  // the fleet pack's reads (packs/fleet.yml)
  ['fleet: versions and plugins', get('/_nodes/_all/plugins'), 200, 'nodes.info@200'],
  ['fleet: disk per node', get('/_nodes/stats/fs'), 200, 'nodes.stats@200'],
  ['fleet: allocation', get('/_cat/allocation', { format: 'json', bytes: 'b' }), 200, 'cat.allocation@200'],
  [
    'fleet: settings with defaults',
    get('/_cluster/settings', { include_defaults: true, flat_settings: true }),
    200,
    'cluster.get_settings@200',
  ],
  ['fleet: index blocks', get('/_settings/index.blocks.read_only_allow_delete'), 200, 'indices.get_settings@200'],
];

// compile every validator first: a compile between requests can outlast the server's keep-alive
for (const id of [
  'error',
  'scroll@200',
  'clear_scroll@200',
  'create_pit@200',
  'delete_pit@200',
  ...steps.map((s) => s[3]),
])
  specErrors(id, null);

t.test(`lab responses match the OpenSearch API specification @ ${specCommit.slice(0, 12)}`, async (t) => {
  for (const [what, req, status, schema] of steps) {
    const res = await call(lab, req);
    t.equal(res.statusCode, status, `${what}: ${req.method} ${req.path} → ${status}`);
    t.strictSame(specErrors(schema, res.body), [], `${what}: body matches ${schema}`);
  }
});

t.test('reading many documents: scroll and point in time, as migrate reads them', async (t) => {
  const check = (schema: string, body: unknown, what: string) => t.strictSame(specErrors(schema, body), [], what);
  const first = await call(
    lab,
    send(
      'POST',
      '/.sm_jsc_jobs/_search',
      { size: 7, query: { match_all: {} } },
      { scroll: '1m', seq_no_primary_term: true },
    ),
  );
  check('search@200', first.body, 'first scroll page');
  const next = await call(lab, send('POST', '/_search/scroll', { scroll: '1m', scroll_id: first.body._scroll_id }));
  check('scroll@200', next.body, 'next scroll page');
  const clear = await call(lab, send('DELETE', '/_search/scroll', { scroll_id: [first.body._scroll_id] }));
  check('clear_scroll@200', clear.body, 'clear scroll');
  const pit = await call(lab, send('POST', '/.sm_jsc_jobs/_search/point_in_time', undefined, { keep_alive: '1m' }));
  check('create_pit@200', pit.body, 'create point in time');
  const page = await call(
    lab,
    send('POST', '/_search', {
      size: 5,
      pit: { id: pit.body.pit_id, keep_alive: '1m' },
      sort: [{ _shard_doc: 'asc' }],
    }),
  );
  check('search@200', page.body, 'point-in-time page');
  const del = await call(lab, send('DELETE', '/_search/point_in_time', { pit_id: [pit.body.pit_id] }));
  check('delete_pit@200', del.body, 'delete point in time');
});

t.test('the validators reject what the engine would not send', async (t) => {
  t.not(specErrors('cat.nodes@200', [{ ip: 5 }]).length, 0, '_cat values are strings');
  t.not(specErrors('search@200', { hits: { total: { value: 1, relation: 'about' }, hits: [] } }).length, 0);
  t.not(specErrors('cluster.health@200', { status: 'purple' }).length, 0);
  t.not(specErrors('error', { error: 'a bare string', status: 400 }).length, 0);
});

t.test('a mistyped index setting is a 400, as the engine answers it; nothing is changed', async (t) => {
  const r = await call(lab, send('PUT', `${LIMITS}/_settings`, { index: { auto_expand_replica: '0-all' } }));
  t.equal(r.statusCode, 400);
  t.match(r.body, {
    error: {
      type: 'illegal_argument_exception',
      reason: /^unknown setting \[index\.auto_expand_replica\] please check/,
    },
  });
  t.strictSame(specErrors('error', r.body), []);
  const after = await call(lab, get(`${LIMITS}/_settings`, { flat_settings: true }));
  t.notOk('index.auto_expand_replica' in after.body['.sm_sme_limits_user'].settings);
});
