import t from 'tap';
import { byRoute, fakeApi, type FakeApi, type Routes } from '../../helpers/fake-api.ts';
import { clusterMacros, clusterMappings, DEFAULT_MACROS_INDEX } from '../../../src/migrate/providers.ts';
import { explainWith } from '../../../src/migrate/explain.ts';

/** A fake API answering from a table of "METHOD path" → response, recording requests. */
const routed = (routes: Routes): FakeApi =>
  fakeApi(byRoute(routes, { statusCode: 404, body: { error: 'no route' } }), { url: 'http://fake:9200' });

const TEXT_KW = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };

t.test('macros: one page from the default index; missing index means none', async (t) => {
  const api = routed({
    [`POST /${DEFAULT_MACROS_INDEX}/_search`]: {
      statusCode: 200,
      body: {
        hits: { total: { value: 1 }, hits: [{ _source: { name: 'web_hosts', args: [], definition: 'host=web*' } }] },
      },
    },
  });
  t.same(await clusterMacros(api).macros(), [{ name: 'web_hosts', args: [], definition: 'host=web*' }]);
  t.match(api.requests[0], { body: { size: 10000 } });
  t.same(await clusterMacros(routed({})).macros(), []);
  await t.rejects(
    clusterMacros(routed({ [`POST /${DEFAULT_MACROS_INDEX}/_search`]: { statusCode: 500, body: {} } })).macros(),
    { code: 'API' },
  );
});

t.test('macros: scrolls when the index holds more than one page', async (t) => {
  const doc = (i: number) => ({ _source: { name: `m${i}`, args: [], definition: 'x' } });
  let page = 0;
  const api = routed({
    'POST /my_macros/_search': (r) =>
      r.querystring?.scroll
        ? { statusCode: 200, body: { _scroll_id: 's1', hits: { hits: [doc(1), doc(2)] } } }
        : { statusCode: 200, body: { hits: { total: { value: 3 }, hits: [doc(1)] } } },
    'POST /_search/scroll': () => ({
      statusCode: 200,
      body: { _scroll_id: 's1', hits: { hits: page++ === 0 ? [doc(3)] : [] } },
    }),
    'DELETE /_search/scroll': { statusCode: 200, body: {} },
  });
  t.same(
    (await clusterMacros(api, 'my_macros').macros()).map((m) => m.name),
    ['m1', 'm2', 'm3'],
  );
  t.match(api.requests.at(-1), { method: 'DELETE', body: { scroll_id: ['s1'] } });
});

t.test('explain against a fake cluster: field mapping API per source, fields found by parsing', async (t) => {
  const api = routed({
    [`POST /${DEFAULT_MACROS_INDEX}/_search`]: {
      statusCode: 200,
      body: { hits: { total: 1, hits: [{ _source: { name: 'web', args: [], definition: 'host=web*' } }] } },
    },
    'GET /logs-*/_mapping/field/host,code': {
      statusCode: 200,
      body: {
        'logs-1': {
          mappings: {
            host: { full_name: 'host', mapping: { host: TEXT_KW } },
            code: { full_name: 'code', mapping: { code: { type: 'long' } } },
          },
        },
      },
    },
  });
  const { explanation } = await explainWith('source logs-* | search host=a `web` code=1', {
    macros: clusterMacros(api),
    mappings: clusterMappings(api),
  });
  t.equal(explanation.replacement, 'source logs-* | search text host=a `web` code=1');
  t.same(
    explanation.search_fields.map((f) => f.status),
    ['text_op_added', 'manual_review', 'not_text'],
  );
  const missing = await explainWith('source nope | search host=a', {
    macros: clusterMacros(api),
    mappings: clusterMappings(api),
  });
  t.match(missing.explanation.errors, [{ code: 'NO_INDEX_MATCH' }]);
});

t.test(
  'macros: relation gte or a full page without a total is more, even when total.value equals the page',
  async (t) => {
    const doc = (i: number) => ({ _source: { name: `m${i}`, args: [], definition: 'x' } });
    for (const total of [{ value: 2, relation: 'gte' }, undefined]) {
      let scrolled = false;
      const api = routed({
        'POST /my_macros/_search': (r) =>
          r.querystring?.scroll
            ? { statusCode: 200, body: { _scroll_id: 's1', hits: { hits: [doc(1), doc(2), doc(3)] } } }
            : { statusCode: 200, body: { hits: { ...(total ? { total } : {}), hits: [doc(1), doc(2)] } } },
        'POST /_search/scroll': () => (
          (scrolled = true),
          { statusCode: 200, body: { _scroll_id: 's1', hits: { hits: [] } } }
        ),
        'DELETE /_search/scroll': { statusCode: 200, body: {} },
      });
      t.same(
        (await clusterMacros(api, 'my_macros', 2).macros()).map((m) => m.name),
        ['m1', 'm2', 'm3'],
        JSON.stringify(total),
      );
      t.ok(scrolled, 'read to the short page');
      t.match(api.requests[0], { body: { size: 2, track_total_hits: true } }, 'asks for an exact count');
    }
  },
);
