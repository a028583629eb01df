/**
 * A scroll's request rules as OpenSearch's SearchRequest.validate applies them (its unit test
 * SearchRequestTests#testValidate states the messages): every rule broken is listed, numbered, in one 400.
 */
import t from 'tap';
import { startLab, call, type Req } from '../../helpers/api-fixture.ts';

const lab = await startLab(t, [{ name: 'docs', docs: { 1: { n: 1 }, 2: { n: 2 }, 3: { n: 3 } } }]);
const search = (querystring: Record<string, unknown>, body: unknown = {}) =>
  call(lab, { method: 'POST', path: '/docs/_search', querystring, body } as Req);
const refused = (reason: string) => ({
  statusCode: 400,
  body: {
    error: {
      root_cause: [{ type: 'action_request_validation_exception', reason }],
      type: 'action_request_validation_exception',
      reason,
    },
    status: 400,
  },
});
const answer = async (q: Record<string, unknown>, body?: unknown) => {
  const r = await search(q, body);
  return { statusCode: r.statusCode, body: r.body };
};

t.test('one rule at a time', async (t) => {
  for (const [q, body, message] of [
    [{ scroll: '1m', from: 1 }, {}, 'using [from] is not allowed in a scroll context'],
    [{ scroll: '1m' }, { from: 2 }, 'using [from] is not allowed in a scroll context'],
    [{ scroll: '1m' }, { size: 0 }, '[size] cannot be [0] in a scroll context'],
    [{ scroll: '1m', request_cache: 'true' }, {}, '[request_cache] cannot be used in a scroll context'],
    [{ scroll: '1m' }, { track_total_hits: 100 }, 'disabling [track_total_hits] is not allowed in a scroll context'],
    [
      { scroll: '1m' },
      { rescore: { window_size: 10, query: { rescore_query: { match_all: {} } } } },
      'using [rescore] is not allowed in a scroll context',
    ],
  ] as const)
    t.strictSame(await answer(q, body), refused(`Validation Failed: 1: ${message};`), JSON.stringify([q, body]));
});

t.test('every rule broken, numbered in the engine order', async (t) => {
  t.strictSame(
    await answer({ scroll: '1m', request_cache: 'true' }, { from: 1, size: 0, track_total_hits: false }),
    refused(
      'Validation Failed: 1: disabling [track_total_hits] is not allowed in a scroll context;' +
        '2: using [from] is not allowed in a scroll context;3: [size] cannot be [0] in a scroll context;' +
        '4: [request_cache] cannot be used in a scroll context;',
    ),
  );
});

t.test('what a scroll may ask: request_cache=false, track_total_hits=true, from 0', async (t) => {
  const r = await search({ scroll: '1m', request_cache: 'false' }, { from: 0, size: 2, track_total_hits: true });
  t.equal(r.statusCode, 200);
  t.same(r.body.hits.total, { value: 3, relation: 'eq' });
  t.equal(r.body.hits.hits.length, 2);
  t.equal((await search({ from: 1 })).statusCode, 200, 'from is fine without a scroll');
});
