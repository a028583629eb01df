import t from 'tap';
import type { ApiResponse } from '../../../src/cluster/types.ts';
import { byRoute, fakeApi, ok, type FakeApi } from '../../helpers/fake-api.ts';
import { catNodesWithManager, engineLine, lineOf } from '../../../src/cluster/engine-line.ts';
import { gatherApi } from '../../../src/audit/gather-api.ts';

const banner = (number: string, distribution = 'opensearch') => ({ version: { number, distribution } });

t.test('lineOf: 1.3, 2.x and 3.x; anything else is refused with the reason', async (t) => {
  t.same(lineOf(banner('1.3.19')), { line: '1.3', number: '1.3.19' });
  t.same(lineOf(banner('2.11.1')), { line: '2.x', number: '2.11.1' });
  t.same(lineOf(banner('3.1.0')), { line: '3.x', number: '3.1.0' });
  t.match(lineOf(banner('1.2.4')), { unsupported: 'OpenSearch 1.2.4 is not supported' });
  t.match(lineOf(banner('4.0.0')), { unsupported: 'OpenSearch 4.0.0 is not supported' });
  t.match(lineOf({ version: { number: '7.10.2' } }), { unsupported: '7.10.2 is not an OpenSearch release' });
  t.match(lineOf({}), { unsupported: /no version\.number/ });
});

const fake = (root: ApiResponse, nodes: unknown = []): FakeApi =>
  fakeApi(byRoute({ '/': root, '/_cat/nodes': ok(nodes) }, { statusCode: 404, body: {} }), {
    url: 'https://fake:9200',
  });

t.test('1.3: the master column and node.role letters, read as cluster_manager and node.roles', async (t) => {
  const api = fake({ statusCode: 200, body: banner('1.3.19') }, [
    { ip: '10.0.0.1', name: 'm1', 'node.role': 'm', master: '*' },
    { ip: '10.0.0.2', name: 'd1', 'node.role': 'dimr', master: '-' },
  ]);
  const r = await catNodesWithManager(api, ['ip', 'name', 'node.roles']);
  t.match(api.requests.at(-1), { querystring: { h: 'ip,name,node.role,master' } });
  t.same(r.body, [
    { ip: '10.0.0.1', name: 'm1', 'node.roles': 'master', cluster_manager: '*' },
    { ip: '10.0.0.2', name: 'd1', 'node.roles': 'data,ingest,master,remote_cluster_client', cluster_manager: '-' },
  ]);
});

t.test('2.x, and a GET / the user may not read, ask for cluster_manager; GET / is read once', async (t) => {
  for (const root of [
    { statusCode: 200, body: banner('2.11.1') },
    { statusCode: 403, body: {} },
  ]) {
    const api = fake(root);
    await catNodesWithManager(api, ['ip', 'name', 'node.roles']);
    await engineLine(api);
    t.match(api.requests.at(-1), { querystring: { h: 'ip,name,node.roles,cluster_manager' } });
    t.equal(api.requests.filter((r) => r.path === '/').length, 1);
  }
});

t.test('an unsupported line: the audit of that cluster fails with which lines are supported', async (t) => {
  const f = await gatherApi(fake({ statusCode: 200, body: banner('4.0.0') }));
  t.equal(f.reachable, false);
  t.match(f.error, /OpenSearch 4\.0\.0 is not supported; smdoctor supports OpenSearch 1\.3, 2\.x and 3\.x/);
});
