import t from 'tap';
import { startLab, call, BASE_LIMIT, type Req } from '../../helpers/api-fixture.ts';
import { BASE_LIMIT_MISSING } from '../../../src/api/service.ts';

const lab = await startLab(t);
const req = (method: string, path: string, body?: unknown, querystring: Record<string, unknown> = {}) =>
  call(lab, { method, path, querystring, ...(body === undefined ? {} : { body }) } as Req);

t.test('GET _settings nested and flat', async (t) => {
  const r = await req('GET', '/.sm_sme_limits_user/_settings');
  t.match(r.body, {
    '.sm_sme_limits_user': {
      settings: {
        index: {
          replication: { type: 'DOCUMENT' },
          refresh_interval: '1s',
          number_of_shards: '1',
          auto_expand_replicas: '0-all',
          provided_name: '.sm_sme_limits_user',
          max_result_window: '10000',
          creation_date: /^\d+$/,
          priority: '10000',
          number_of_replicas: '1',
          uuid: String,
          version: { created: /^\d+$/, upgraded: /^\d+$/ },
        },
      },
    },
  });
  const flat = await req('GET', '/logs/_settings', undefined, { flat_settings: true });
  t.match(flat.body, {
    logs: {
      settings: {
        'index.number_of_replicas': '1',
        'index.auto_expand_replicas': 'false',
        'index.version.created': String,
      },
    },
  });
  const star = await req('GET', '/*/_settings');
  t.same(Object.keys(star.body), ['logs'], '* skips dot-prefixed indices');
  const dot = await req('GET', '/.sm_*/_settings');
  t.same(Object.keys(dot.body), ['.sm_jsc_jobs', '.sm_sme_limits_user']);
  t.match(await req('GET', '/nope/_settings'), {
    statusCode: 404,
    body: {
      error: {
        root_cause: [{ type: 'index_not_found_exception', reason: 'no such index [nope]' }],
        type: 'index_not_found_exception',
      },
      status: 404,
    },
  });
});

t.test('PUT _settings in the four forms, auto-expand recomputed on reallocate', async (t) => {
  const forms: Array<[unknown, string]> = [
    [{ 'index.auto_expand_replicas': '0-all' }, '0-all'],
    [{ index: { auto_expand_replicas: '0-1' } }, '0-1'],
    [{ auto_expand_replicas: '1-all' }, '1-all'],
    [{ settings: { index: { auto_expand_replicas: '0-all' } } }, '0-all'],
  ];
  for (const [body, want] of forms) {
    t.match(
      await req('PUT', '/logs/_settings', body),
      { statusCode: 200, body: { acknowledged: true } },
      JSON.stringify(body),
    );
    const got = await req('GET', '/logs/_settings', undefined, { flat_settings: true });
    t.equal(got.body.logs.settings['index.auto_expand_replicas'], want);
  }
  const bad = await req('PUT', '/logs/_settings', { index: { auto_expand_replicas: 'sometimes' } });
  t.match(bad, {
    statusCode: 400,
    body: { error: { type: 'illegal_argument_exception', reason: /auto_expand_replicas/ }, status: 400 },
  });

  // 0-all over a third data node, then back to one.
  lab.store.reallocate(['data-1', 'data-2', 'data-3']);
  let s = await req('GET', '/logs/_settings');
  t.equal(s.body.logs.settings.index.number_of_replicas, '2');
  t.same((await req('GET', '/_cat/shards/logs', undefined, { format: 'json' })).body.map((r: any) => r.node).sort(), [
    'data-1',
    'data-2',
    'data-3',
  ]);
  lab.store.reallocate(['data-1']);
  s = await req('GET', '/logs/_settings');
  t.equal(s.body.logs.settings.index.number_of_replicas, '0');
  t.same(
    (await req('GET', '/_cat/shards/logs', undefined, { format: 'json' })).body.map((r: any) => r.node),
    ['data-1'],
  );
  await req('PUT', '/logs/_settings', { index: { auto_expand_replicas: 'false', number_of_replicas: 1 } });
  lab.store.reallocate(['data-1', 'data-2']);
  t.equal((await req('GET', '/logs/_settings')).body.logs.settings.index.number_of_replicas, '1');
});

t.test('documents: create, update, get, conflicts, delete', async (t) => {
  const c = await req('PUT', '/notes/_doc/n1', {
    title: 'first',
    count: 2,
    score: 1.5,
    done: false,
    author: { id: 'u1' },
  });
  t.match(c, {
    statusCode: 201,
    body: {
      _index: 'notes',
      _id: 'n1',
      _version: 1,
      result: 'created',
      _shards: { total: 2, successful: 2, failed: 0 },
      _seq_no: 0,
      _primary_term: 1,
    },
  });
  const u = await req('PUT', '/notes/_doc/n1', { title: 'second' });
  t.match(u, { statusCode: 200, body: { result: 'updated', _version: 2, _seq_no: 1 } });
  t.match(await req('GET', '/notes/_doc/n1'), {
    statusCode: 200,
    body: {
      _index: 'notes',
      _id: 'n1',
      _version: 2,
      _seq_no: 1,
      _primary_term: 1,
      found: true,
      _source: { title: 'second' },
    },
  });
  t.match(await req('GET', '/notes/_doc/zz'), { statusCode: 404, body: { _index: 'notes', _id: 'zz', found: false } });
  const stale = await req('PUT', '/notes/_doc/n1', { title: 'third' }, { if_seq_no: 0, if_primary_term: 1 });
  t.match(stale, {
    statusCode: 409,
    body: {
      error: { type: 'version_conflict_engine_exception', root_cause: [{ type: 'version_conflict_engine_exception' }] },
      status: 409,
    },
  });
  t.match(await req('PUT', '/notes/_doc/n1', { title: 'third' }, { if_seq_no: 1, if_primary_term: 1 }), {
    statusCode: 200,
    body: { _seq_no: 2 },
  });
  const auto = await req('POST', '/notes/_doc', { title: 'auto' });
  t.match(auto, { statusCode: 201, body: { _id: /^\S+$/, result: 'created' } });
  t.match(await req('DELETE', `/notes/_doc/${auto.body._id}`), { statusCode: 200, body: { result: 'deleted' } });
  t.match(await req('DELETE', `/notes/_doc/${auto.body._id}`), { statusCode: 404, body: { result: 'not_found' } });
  t.match(await req('GET', '/missing/_doc/x'), {
    statusCode: 404,
    body: { error: { type: 'index_not_found_exception' } },
  });
  t.match(await req('PUT', '/Bad/_doc/x', { a: 1 }), { statusCode: 400, body: { status: 400 } });
});

t.test('mappings: dynamic types and field mapping of a dotted name', async (t) => {
  const m = await req('GET', '/notes/_mapping');
  t.match(m.body, {
    notes: {
      mappings: {
        properties: {
          title: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
          count: { type: 'long' },
          score: { type: 'float' },
          done: { type: 'boolean' },
          author: { properties: { id: { type: 'text' } } },
        },
      },
    },
  });
  const f = await req('GET', '/notes,logs/_mapping/field/author.id,title,nope');
  t.same(f.body.notes.mappings['author.id'], {
    full_name: 'author.id',
    mapping: { id: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } } },
  });
  t.same(f.body.notes.mappings.title.full_name, 'title');
  t.notOk('nope' in f.body.notes.mappings);
  t.match(f.body.logs.mappings, { 'author.id': { full_name: 'author.id', mapping: { id: {} } } });
  const none = await req('GET', '/logs/_mapping/field/absent');
  t.same(none.body, { logs: { mappings: {} } });
  const wild = await req('GET', '/logs/_mapping/field/author.*');
  t.same(Object.keys(wild.body.logs.mappings).sort(), [
    'author.id',
    'author.id.keyword',
    'author.name',
    'author.name.keyword',
  ]);
});

t.test('search: queries, sort, search_after, seq_no_primary_term, errors', async (t) => {
  const all = await req('POST', '/.sm_jsc_jobs/_search', { size: 5, query: { match_all: {} } });
  t.match(all.body, {
    timed_out: false,
    _shards: { total: 1, failed: 0 },
    hits: { total: { value: 30, relation: 'eq' }, max_score: 1 },
  });
  t.equal(all.body.hits.hits.length, 5);
  t.match(all.body.hits.hits[0], { _index: '.sm_jsc_jobs', _id: 'job-00', _score: 1, _source: { n: 0 } });
  const cases: Array<[unknown, string[]]> = [
    [{ term: { _id: 'job-03' } }, ['job-03']],
    [{ terms: { _id: ['job-01', 'job-02', 'nope'] } }, ['job-01', 'job-02']],
    [{ term: { '_meta.id': { value: 'j7' } } }, ['job-07']],
    [{ term: { '_meta.id.keyword': 'j8' } }, ['job-08']],
    [{ bool: { must: [{ terms: { n: [1, 2, 3] } }], filter: [{ term: { n: 2 } }] } }, ['job-02']],
    [{ bool: { filter: { terms: { n: [4, 5] } }, must_not: { term: { n: 5 } } } }, ['job-04']],
  ];
  for (const [query, ids] of cases) {
    const r = await req('POST', '/.sm_jsc_jobs/_search', { query });
    t.same(
      r.body.hits.hits.map((h: any) => h._id),
      ids,
      JSON.stringify(query),
    );
  }
  const sorted = await req(
    'POST',
    '/.sm_jsc_jobs/_search',
    { size: 3, sort: [{ n: { order: 'desc' } }] },
    { seq_no_primary_term: true },
  );
  t.same(
    sorted.body.hits.hits.map((h: any) => h._id),
    ['job-29', 'job-28', 'job-27'],
  );
  t.match(sorted.body.hits.hits[0], { _score: null, sort: [29], _seq_no: Number, _primary_term: 1 });
  t.equal(sorted.body.hits.max_score, null);
  const after = await req('POST', '/.sm_jsc_jobs/_search', { size: 2, sort: [{ n: 'desc' }], search_after: [27] });
  t.same(
    after.body.hits.hits.map((h: any) => h._id),
    ['job-26', 'job-25'],
  );
  const unsupported = await req('POST', '/.sm_jsc_jobs/_search', { query: { query_string: { query: 'x' } } });
  t.match(unsupported, { statusCode: 400, body: { error: { type: 'parsing_exception' }, status: 400 } });
  t.match(await req('POST', '/nope/_search', {}), {
    statusCode: 404,
    body: { error: { type: 'index_not_found_exception' } },
  });
  const star = await req('GET', '/_search', undefined, { size: 100 });
  t.notOk(
    star.body.hits.hits.some((h: any) => h._index.startsWith('.')),
    '_search over all skips dot-prefixed indices',
  );
});

t.test('scroll pages through every document, then clears', async (t) => {
  const seen: string[] = [];
  let r = await req('POST', '/.sm_jsc_jobs/_search', { size: 7, sort: ['_doc'] }, { scroll: '1m' });
  t.match(r.body, { _scroll_id: String, hits: { total: { value: 30 } } });
  const id = r.body._scroll_id;
  while (r.body.hits.hits.length) {
    seen.push(...r.body.hits.hits.map((h: any) => h._id));
    r = await req('POST', '/_search/scroll', { scroll: '1m', scroll_id: id });
  }
  t.equal(seen.length, 30);
  t.equal(new Set(seen).size, 30, 'no document twice');
  t.same(await req('DELETE', '/_search/scroll', { scroll_id: [id] }).then((x) => x.body), {
    succeeded: true,
    num_freed: 1,
  });
  t.match(await req('POST', '/_search/scroll', { scroll: '1m', scroll_id: id }), {
    statusCode: 404,
    body: { status: 404 },
  });
});

t.test('point in time: a snapshot paged with search_after', async (t) => {
  const pit = await req('POST', '/.sm_jsc_jobs/_search/point_in_time', undefined, { keep_alive: '1m' });
  t.match(pit.body, { pit_id: String, _shards: { total: 1, successful: 1, failed: 0 }, creation_time: Number });
  await req('PUT', '/.sm_jsc_jobs/_doc/job-late', { n: 99 });
  await req('PUT', '/.sm_jsc_jobs/_doc/job-00', { n: -1 });
  const seen: any[] = [];
  let after: unknown[] | undefined;
  for (;;) {
    const r = await req('POST', '/_search', {
      size: 8,
      pit: { id: pit.body.pit_id, keep_alive: '1m' },
      sort: [{ _shard_doc: 'asc' }],
      ...(after ? { search_after: after } : {}),
    });
    t.equal(r.body.pit_id, pit.body.pit_id);
    const hits = r.body.hits.hits;
    if (!hits.length) break;
    seen.push(...hits);
    after = hits[hits.length - 1].sort;
  }
  t.equal(seen.length, 30, 'the document added after the PIT is not in it');
  t.equal(seen.find((h) => h._id === 'job-00')._source.n, 0, 'the update after the PIT is not seen');
  t.match(await req('POST', '/logs/_search', { pit: { id: pit.body.pit_id } }), { statusCode: 400 });
  t.match(await req('DELETE', '/_search/point_in_time', { pit_id: [pit.body.pit_id] }), {
    statusCode: 200,
    body: { pits: [{ successful: true, pit_id: pit.body.pit_id }] },
  });
  t.match(await req('POST', '/_search', { pit: { id: pit.body.pit_id } }), { statusCode: 404, body: { status: 404 } });
  await req('DELETE', '/.sm_jsc_jobs/_doc/job-late');
});

t.test('service endpoint: base limit present, then missing', async (t) => {
  t.match(await req('GET', '/_core/limits_user/base_limit'), { statusCode: 200, body: BASE_LIMIT });
  await req('DELETE', '/.sm_sme_limits_user/_doc/base_limit');
  const gone = await req('GET', '/_core/limits_user/base_limit');
  t.match(gone, { statusCode: 404, body: { status: 404 } });
  t.equal(gone.body.error.reason, BASE_LIMIT_MISSING);
  t.equal(gone.body.error.root_cause[0].reason, 'Error while parsing limits: Base user limit not found in index');
  await req('DELETE', '/.sm_sme_limits_user');
  t.equal(
    (await req('GET', '/_core/limits_user/base_limit')).body.error.reason,
    BASE_LIMIT_MISSING,
    'index missing too',
  );
  t.match(await req('PUT', '/.sm_sme_limits_user/_doc/base_limit', BASE_LIMIT), { statusCode: 201 });
  t.match(await req('GET', '/_core/limits_user/base_limit'), {
    statusCode: 200,
    body: { _meta: { id: 'base_limit' } },
  });
});
