/** Index aliases in the lab answer as the engine does: settings and `_cat/shards` under the concrete index names. */
import t from 'tap';
import { startLab, call, type Req } from '../../helpers/api-fixture.ts';

const lab = await startLab(t, [
  { name: 'limits-1', aliases: ['limits', 'both'], settings: { index: { auto_expand_replicas: '0-all' } } },
  { name: 'other-1', aliases: ['both'] },
]);
const req = (method: string, path: string, body?: unknown, querystring: Record<string, unknown> = {}) =>
  call(lab, { method, path, querystring, ...(body === undefined ? {} : { body }) } as Req);

t.test('GET <alias>/_settings and _cat/shards/<alias> name the concrete indices', async (t) => {
  t.same(Object.keys((await req('GET', '/limits/_settings')).body), ['limits-1']);
  t.same(Object.keys((await req('GET', '/both/_settings')).body), ['limits-1', 'other-1']);
  const rows = (await req('GET', '/_cat/shards/limits', undefined, { format: 'json' })).body as Array<{
    index: string;
  }>;
  t.ok(rows.length >= 1);
  t.same([...new Set(rows.map((r) => r.index))], ['limits-1']);
  t.match(await req('PUT', '/limits/_settings', { index: { auto_expand_replicas: '0-1' } }), { statusCode: 200 });
  t.equal((await req('GET', '/limits-1/_settings')).body['limits-1'].settings.index.auto_expand_replicas, '0-1');
});

t.test('documents through an alias of one index; an alias of two is refused', async (t) => {
  t.match(await req('PUT', '/limits/_doc/a', { x: 1 }), { statusCode: 201, body: { _index: 'limits-1' } });
  t.match(await req('GET', '/limits/_doc/a'), { statusCode: 200, body: { _index: 'limits-1', found: true } });
  t.match(await req('PUT', '/both/_doc/b', { x: 1 }), {
    statusCode: 400,
    body: { error: { type: 'illegal_argument_exception', reason: /no write index is defined for alias \[both\]/ } },
  });
  t.match(await req('PUT', '/limits', {}), {
    statusCode: 400,
    body: { error: { type: 'invalid_index_name_exception', reason: /already exists as alias/ } },
  });
});
