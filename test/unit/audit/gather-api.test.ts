import t from 'tap';
import { gatherApi } from '../../../src/audit/gather-api.ts';
import { clusterRoutes, fakeApi, nodeRow } from '../../helpers/audit/fakes.ts';

t.test('reads every endpoint of the procedure, _cat as JSON', async (t) => {
  const routes = {
    ...clusterRoutes({
      name: 'prod',
      nodes: [nodeRow('m1', '10.0.0.1', 'cluster_manager', '*')],
      plugins: [{ name: 'm1', component: 'sm-sigma', version: '1' }],
    }),
    '/.sm_sme_limits_user/_settings': {
      statusCode: 200,
      body: { '.sm_sme_limits_user': { settings: { index: { auto_expand_replicas: '0-1' } } } },
    },
  };
  const api = fakeApi('https://x:9200', routes);
  const f = await gatherApi(api);
  t.match(f, {
    reachable: true,
    clusterName: 'prod',
    nodes: [{ name: 'm1', 'node.roles': 'cluster_manager' }],
    plugins: [{ component: 'sm-sigma' }],
    baseLimitEndpoint: { statusCode: 404 },
    baseLimitDoc: { statusCode: 404 },
    limitsSettings: { statusCode: 200 },
    limitsShards: [],
    health: { statusCode: 200 },
  });
  t.equal(f.error, undefined, 'a 404 of the missing document is an answer, not an error');
  const paths = api.requests.map((r) => r.path).sort();
  t.same(paths, [
    '/',
    '/.sm_sme_limits_user/_doc/base_limit',
    '/.sm_sme_limits_user/_settings',
    '/.smdoctor-lease/_doc/fix',
    '/_cat/nodeattrs',
    '/_cat/nodes',
    '/_cat/plugins',
    '/_cat/shards/.sm_sme_limits_user',
    '/_cluster/health',
    '/_cluster/settings',
    '/_core/limits_user/base_limit',
  ]);
  t.match(
    api.requests.find((r) => r.path === '/_cat/nodes'),
    { method: 'GET', querystring: { format: 'json', h: 'ip,name,node.roles,cluster_manager' } },
  );
  for (const r of api.requests.filter((x) => x.path.startsWith('/_cat/')))
    t.equal(r.querystring?.format, 'json', r.path);
});

t.test('connection failure or a refused node list: reachable false with why', async (t) => {
  const down = await gatherApi(fakeApi('https://x:9200', {}, new Error('connect ECONNREFUSED')));
  t.match(down, { reachable: false, error: /ECONNREFUSED/, nodes: [] });
  const denied = await gatherApi(
    fakeApi('https://x:9200', { '/_cat/nodes': { statusCode: 401, body: { error: {}, status: 401 } } }),
  );
  // the refusal says what to set, not just the status
  t.match(denied, { reachable: false, error: /_cat\/nodes answered HTTP 401 Unauthorized: .* set api_username/ });
});

t.test('the same answer objects give the very same facts; one answer changed gives new ones', async (t) => {
  const routes = clusterRoutes({ name: 'prod', nodes: [nodeRow('m1', '10.0.0.1', 'cluster_manager', '*')] });
  const first = await gatherApi(fakeApi('https://x:9200', routes));
  t.equal(await gatherApi(fakeApi('https://x:9200', routes)), first, 'made once: serve keeps the same body objects');
  const yellow = { statusCode: 200, body: { cluster_name: 'prod', status: 'yellow' } };
  const changed = await gatherApi(fakeApi('https://x:9200', { ...routes, '/_cluster/health': yellow }));
  t.not(changed, first);
  t.match(changed, { health: { body: { status: 'yellow' } }, nodes: [{ name: 'm1' }] });
  // an audit's answers are parsed afresh: equal, never the same
  const fresh = structuredClone(routes);
  t.not(await gatherApi(fakeApi('https://x:9200', fresh)), first);
  t.same(await gatherApi(fakeApi('https://x:9200', fresh)), first);
});
