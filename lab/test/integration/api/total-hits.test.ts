/**
 * `hits.total` and `track_total_hits`, ported from OpenSearch's REST test
 * rest-api-spec/src/main/resources/rest-api-spec/test/search/220_total_hits_object.yml
 * (opensearch-project/OpenSearch @ 9057871647fa5cab80b3b7c9489eb2a3587dd6fe, Apache-2.0): same documents, same assertions.
 * The lab does not analyse text, so `match: {foo: bar}` becomes `term: {foo: bar}` (the same hits on one-word values).
 */
import t from 'tap';
import { startLab, call, type Req } from '../../helpers/api-fixture.ts';

const docs = (ids: Record<string, string>) => Object.fromEntries(Object.entries(ids).map(([id, foo]) => [id, { foo }]));
const lab = await startLab(t, [
  { name: 'test_1', docs: docs({ 1: 'bar', 3: 'baz', 2: 'bar', 4: 'bar' }) },
  { name: 'test_2', docs: docs({ 42: 'bar', 24: 'baz', 36: 'bar' }) },
]);
const BAR = { query: { term: { foo: 'bar' } } };
const search = (index: string | null, querystring: Record<string, unknown>, body: unknown = BAR) =>
  call(lab, { method: 'POST', path: index ? `/${index}/_search` : '/_search', querystring, body } as Req);

t.test('hits.total as an object', async (t) => {
  t.same((await search('_all', {})).body.hits.total, { value: 5, relation: 'eq' });
  t.same((await search('test_1', {})).body.hits.total, { value: 3, relation: 'eq' });
  const off = await search('_all', { track_total_hits: false });
  t.equal(off.statusCode, 200);
  t.notOk('total' in off.body.hits, 'is_false: hits.total');
  t.same((await search(null, { track_total_hits: 4 })).body.hits.total, { value: 4, relation: 'gte' });
  t.same((await search(null, { size: 0, track_total_hits: 4 })).body.hits.total, { value: 4, relation: 'gte' });
  t.same((await search(null, { size: 0, track_total_hits: 5 })).body.hits.total, { value: 5, relation: 'eq' });
  const inexact = await search('test_2', { rest_total_hits_as_int: true, track_total_hits: 100 });
  t.equal(inexact.statusCode, 400);
  t.match(
    inexact.body.error.reason,
    /\[rest_total_hits_as_int\] cannot be used if the tracking of total hits is not accurate, got 100/,
  );
  const negative = await search('test_2', { rest_total_hits_as_int: true, track_total_hits: -2 });
  t.equal(negative.statusCode, 400);
  t.match(negative.body.error.reason, /\[track_total_hits\] parameter must be positive or equals to -1, got -2/);
});

t.test('track_total_hits with rest_total_hits_as_int', async (t) => {
  t.equal((await search('_all', { track_total_hits: false, rest_total_hits_as_int: true })).body.hits.total, -1);
  t.equal((await search('test_2', { rest_total_hits_as_int: true })).body.hits.total, 2);
});

t.test('in the body as in the query; a scroll counts every hit and refuses to stop counting', async (t) => {
  t.same((await search(null, {}, { ...BAR, track_total_hits: 4 })).body.hits.total, { value: 4, relation: 'gte' });
  t.same((await search(null, {}, { ...BAR, track_total_hits: true })).body.hits.total, { value: 5, relation: 'eq' });
  const scroll = await search(null, { scroll: '1m', size: 1 });
  t.same(scroll.body.hits.total, { value: 5, relation: 'eq' });
  for (const [q, why] of [
    [{ scroll: '1m', track_total_hits: false }, /disabling \[track_total_hits\] is not allowed in a scroll context/],
    [{ scroll: '1m', size: 0 }, /\[size\] cannot be \[0\] in a scroll context/],
    [{ scroll: '1m', request_cache: true }, /\[request_cache\] cannot be used in a scroll context/],
  ] as const) {
    const r = await search(null, q);
    t.equal(r.statusCode, 400, JSON.stringify(q));
    t.match(r.body, { status: 400, error: { type: 'action_request_validation_exception', reason: why } });
  }
});
