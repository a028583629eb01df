/** A read-only API user (scenario `api_access: read`): reads pass, each write is the security plugin's 403. */
import t from 'tap';
import { startLab, call, AUTH, type Req } from '../../helpers/api-fixture.ts';

const lab = await startLab(t);
lab.view.apiAccess = 'read';

const refused = (action: string) => {
  const reason = `no permissions for [${action}] and User [name=${AUTH.username}, backend_roles=[], requestedTenant=null]`;
  return {
    statusCode: 403,
    body: {
      error: { root_cause: [{ type: 'security_exception', reason }], type: 'security_exception', reason },
      status: 403,
    },
  };
};
const answer = async (req: Req) => {
  const r = await call(lab, req);
  return { statusCode: r.statusCode, body: r.body };
};

t.test('reads pass: documents, settings, searches, scrolls, _cat, health', async (t) => {
  t.equal((await call(lab, { method: 'GET', path: '/.sm_sme_limits_user/_doc/base_limit' })).statusCode, 200);
  t.equal((await call(lab, { method: 'GET', path: '/_cluster/settings' })).statusCode, 200);
  t.equal((await call(lab, { method: 'GET', path: '/_cat/nodes', querystring: { format: 'json' } })).statusCode, 200);
  const s = await call(lab, { method: 'POST', path: '/logs/_search', querystring: { scroll: '1m' }, body: {} });
  t.equal(s.statusCode, 200);
  t.equal(
    (await call(lab, { method: 'DELETE', path: '/_search/scroll', body: { scroll_id: s.body._scroll_id } })).statusCode,
    200,
  );
});

t.test('writes are refused with the permission they need, and nothing changes', async (t) => {
  t.strictSame(
    await answer({ method: 'PUT', path: '/logs/_doc/b', body: { message: 'x' } }),
    refused('indices:data/write/index'),
  );
  t.strictSame(await answer({ method: 'DELETE', path: '/logs/_doc/a' }), refused('indices:data/write/delete'));
  t.strictSame(
    await answer({ method: 'PUT', path: '/logs/_settings', body: { index: { number_of_replicas: 0 } } }),
    refused('indices:admin/settings/update'),
  );
  t.strictSame(
    await answer({
      method: 'PUT',
      path: '/_cluster/settings',
      body: { persistent: { 'cluster.routing.allocation.enable': 'none' } },
    }),
    refused('cluster:admin/settings/update'),
  );
  t.strictSame(await answer({ method: 'PUT', path: '/new-index' }), refused('indices:admin/create'));
  t.equal((await call(lab, { method: 'GET', path: '/logs/_doc/b' })).statusCode, 404, 'the document was not written');
  t.equal((await call(lab, { method: 'GET', path: '/logs/_doc/a' })).statusCode, 200, 'the document was not deleted');
  t.equal(lab.store.get('logs')!.settings['index.number_of_replicas'], '1', 'the settings are unchanged');
});

t.test('a user with every permission writes', async (t) => {
  lab.view.apiAccess = 'all';
  t.teardown(() => {
    lab.view.apiAccess = 'read';
  });
  t.equal((await call(lab, { method: 'PUT', path: '/logs/_doc/c', body: { message: 'y' } })).statusCode, 201);
});
