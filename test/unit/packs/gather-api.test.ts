/** The packs' GETs join audit's per-cluster reads: each request once however spelled, none audit makes anyway, GET only. */
import t from 'tap';
import { gatherApi } from '../../../src/audit/gather-api.ts';
import { clusterRoutes, fakeApi, nodeRow } from '../../helpers/audit/fakes.ts';

t.test('de-duplicated across checks and packs, and against audit its own reads', async (t) => {
  const routes = {
    ...clusterRoutes({ nodes: [nodeRow('n1', '10.0.0.1', 'dm', '*')] }),
    '/_cat/indices': { statusCode: 200, body: [{ index: 'a', health: 'green' }] },
    '/_cluster/health': { statusCode: 200, body: { cluster_name: 'lab', status: 'green' } },
  };
  const baseline = fakeApi('https://10.0.0.1:9200', routes);
  await gatherApi(baseline);
  const api = fakeApi('https://10.0.0.1:9200', routes);
  const paths = new Set([
    '_cat/indices?format=json&h=index',
    '/_cat/indices?h=index&format=json',
    '_cluster/health',
    '/_cluster/health',
  ]);
  const facts = await gatherApi(api, paths);
  t.equal(api.requests.length, baseline.requests.length + 1, 'one more request: _cat/indices once, health not again');
  t.ok(
    api.requests.every((r) => r.method === 'GET' && r.body === undefined),
    'GETs without a body',
  );
  t.same(Object.keys(facts.packReads ?? {}).sort(), [...paths].sort(), 'every spelling answered');
  t.same(facts.packReads!['_cluster/health']!.body, { cluster_name: 'lab', status: 'green' });
  t.same(facts.packReads!['/_cat/indices?h=index&format=json']!.body, [{ index: 'a', health: 'green' }]);
});
