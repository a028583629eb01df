import t from 'tap';
import { readAll } from '../../helpers/migrate/read-all.ts';
import { extractDashboards, extractJobs } from '../../../src/migrate/stored/extract.ts';
import { findStored, storedConfig } from '../../../src/migrate/stored/find.ts';
import { renderStoredJson, renderStoredText } from '../../../src/migrate/stored/output.ts';
import { clusterMacros, clusterMappings } from '../../../src/migrate/providers.ts';
import { fakeCluster, MAPPINGS } from '../../helpers/migrate/stored-fake.ts';

const jobs = (n: number) =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [
      `job-${String(i).padStart(3, '0')}`,
      { _meta: { id: `j${i}` }, query: `source logs-1 | search code=${i}` },
    ]),
  );
const sources = (api: ReturnType<typeof fakeCluster>) => ({
  mappings: clusterMappings(api),
  macros: clusterMacros(api),
});
const cfg = storedConfig({});

t.test('PIT: pages with search_after and seq_no_primary_term, PIT deleted at the end', async (t) => {
  const api = fakeCluster({ docs: { '.sm_jsc_jobs': jobs(7) } });
  const docs = await readAll(api, '.sm_jsc_jobs', { page: 3 });
  t.equal(docs!.length, 7);
  t.same(new Set(docs!.map((d) => d.id)).size, 7, 'no document twice');
  t.match(docs![0], {
    index: '.sm_jsc_jobs',
    id: 'job-000',
    seqNo: Number,
    primaryTerm: 1,
    source: { _meta: { id: 'j0' } },
  });
  const pages = api.seen.filter((r) => r.path === '/_search');
  t.equal(pages.length, 3, '3 + 3 + 1');
  t.match(pages[1], {
    querystring: { seq_no_primary_term: true },
    body: { size: 3, pit: { id: 'pit-0' }, search_after: ['job-002'] },
  });
  t.equal(api.pits.size, 0, 'PIT deleted');
  t.match(api.seen.at(-1), { method: 'DELETE', path: '/_search/point_in_time', body: { pit_id: ['pit-0'] } });
});

t.test('scroll fallback when PIT is unavailable; scroll cleared; missing index is null', async (t) => {
  const api = fakeCluster({
    docs: { '.sm_dashboards': { a: { json: {} }, b: { json: {} }, c: { json: {} } } },
    noPit: true,
  });
  const docs = await readAll(api, '.sm_dashboards', { page: 2 });
  t.same(
    docs!.map((d) => d.id),
    ['a', 'b', 'c'],
  );
  t.ok(
    docs!.every((d) => Number.isInteger(d.seqNo)),
    'seq_no from every page',
  );
  t.match(
    api.seen.find((r) => r.path === '/.sm_dashboards/_search'),
    { querystring: { scroll: '1m', seq_no_primary_term: true } },
  );
  t.equal(api.scrolls.size, 0, 'scroll cleared');
  t.equal(await readAll(fakeCluster({ docs: {} }), '.sm_jsc_jobs'), null);
});

t.test('extract jobs: query field (dotted too), _meta.id, bad documents are warnings', async (t) => {
  const d = (id: string, source: Record<string, unknown>) => ({ index: 'i', id, seqNo: 1, primaryTerm: 1, source });
  const out = extractJobs(
    [
      d('1', { _meta: { id: 'a' }, query: 'source x' }),
      d('2', { name: 'no query' }),
      d('3', { query: 42 }),
      d('4', { query: 'source y' }),
    ],
    'query',
  );
  t.match(out.queries, [
    { ownerId: 'a', path: 'query', query: 'source x' },
    { ownerId: '4', query: 'source y' },
  ]);
  t.match(out.warnings, [
    { doc_id: '2', message: /has no query field/ },
    { doc_id: '3', message: /no string/ },
  ]);
  t.match(extractJobs([d('5', { spec: { sml: 'source z' } })], 'spec.sml').queries, [
    { path: 'spec.sml', query: 'source z' },
  ]);
});

t.test('extract dashboards: object and string json, exact pathInJson, bad json is a warning', async (t) => {
  const rows = [
    {
      panels: [
        { viz: { options: { sme: { query: 'q00' } } } },
        { viz: { type: 'md' } },
        { viz: { options: { sme: { query: 'q02' } } } },
      ],
    },
    { panels: [{ viz: { options: { sme: { query: 'q10' } } } }] },
  ];
  const d = (id: string, json: unknown) => ({
    index: 'i',
    id,
    seqNo: 1,
    primaryTerm: 1,
    source: { _meta: { id: `D${id}` }, json },
  });
  const cases: Array<[string, unknown]> = [
    ['object', { rows }],
    ['string', JSON.stringify({ rows }, null, 2)],
  ];
  for (const [name, json] of cases) {
    const out = extractDashboards([d(name, json)]);
    t.same(
      out.queries.map((q) => [q.path, q.query, q.ownerId]),
      [
        ['rows[0].panels[0].viz.options.sme.query', 'q00', `D${name}`],
        ['rows[0].panels[2].viz.options.sme.query', 'q02', `D${name}`],
        ['rows[1].panels[0].viz.options.sme.query', 'q10', `D${name}`],
      ],
      name,
    );
    t.same(out.warnings, []);
  }
  const bad = extractDashboards([
    d('x', '{"rows": ['),
    d('y', undefined),
    d('z', 7),
    d('w', { rows: [{ panels: [{ viz: { options: { sme: { query: 1 } } } }] }] }),
  ]);
  t.same(bad.queries, []);
  t.match(bad.warnings, [
    { doc_id: 'x', message: /not valid JSON/ },
    { doc_id: 'y', message: /no `json`/ },
    { doc_id: 'z', message: /neither/ },
    { doc_id: 'w', path: 'rows[0].panels[0].viz.options.sme.query' },
  ]);
});

t.test(
  'jobs: exact seed §2.5 objects, only what needs replacement, mappings fetched page by page for what is new',
  async (t) => {
    const api = fakeCluster({
      mappings: MAPPINGS,
      macros: [{ name: 'web', args: [], definition: 'host=web*' }],
      docs: {
        '.sm_jsc_jobs': {
          a: { _meta: { id: 'A' }, query: 'source logs-1 | search host=x' },
          b: { _meta: { id: 'B' }, query: 'source logs-2 | search user=bob' },
          c: { _meta: { id: 'C' }, query: 'source logs-* | search `web`' },
          d: { _meta: { id: 'D' }, query: 'source logs-1 | search host="unclosed' },
          e: { _meta: { id: 'E' }, query: 'source logs-2 | search text host=y OR host=z' },
        },
      },
    });
    const f = await findStored(api, 'jobs', cfg, sources(api), { page: 2 });
    const json = JSON.parse(renderStoredJson(f.entries));
    t.strictSame(json[0], {
      job_id: 'A',
      index: '.sm_jsc_jobs',
      doc_id: 'a',
      query: { original: 'source logs-1 | search host=x', replacement: 'source logs-1 | search text host=x' },
    });
    t.strictSame(json[1], {
      job_id: 'C',
      index: '.sm_jsc_jobs',
      doc_id: 'c',
      query: { original: 'source logs-* | search `web`', replacement: 'source logs-* | search `web`' },
      manual_review: true,
      fields: ['host'],
      errors: [],
    });
    t.match(json[2], {
      job_id: 'D',
      query: {
        original: 'source logs-1 | search host="unclosed',
        replacement: 'source logs-1 | search host="unclosed',
      },
      manual_review: true,
      errors: [{ code: String }],
    });
    t.strictSame(json[3], {
      job_id: 'E',
      index: '.sm_jsc_jobs',
      doc_id: 'e',
      query: {
        original: 'source logs-2 | search text host=y OR host=z',
        replacement: 'source logs-2 | search text host=y OR text host=z',
      },
    });
    t.equal(json.length, 4, 'B needs nothing');
    const maps = api.seen.filter((r) => r.path.includes('_mapping'));
    t.match(maps[0], { method: 'GET', querystring: { ignore_unavailable: true } });
    t.match(maps[0].path, /^\/logs-1,logs-2\/_mapping\/field\/host,user$/, 'the first page: its patterns and fields');
    // later pages ask only what is new: each (pattern, field) pair once
    const pairs = maps.flatMap((r) => {
      const [p, f] = r.path.slice(1).split('/_mapping/field/');
      return p.split(',').flatMap((x) => f.split(',').map((y) => `${x} ${y}`));
    });
    t.equal(new Set(pairs).size, pairs.length, 'no pair asked twice');
    t.strictSame(
      new Set(pairs),
      new Set(['logs-1 host', 'logs-1 user', 'logs-2 host', 'logs-2 user', 'logs-* host', 'logs-* user']),
    );
    t.equal(api.seen.filter((r) => r.path === '/.sm_sme_macros/_search').length, 1, 'macros read once');
  },
);

t.test('dashboards: exact seed §2.6 objects; text marks insertions and flags manual entries', async (t) => {
  const panel = (query: string) => ({ viz: { options: { sme: { query } } } });
  const api = fakeCluster({
    mappings: MAPPINGS,
    docs: {
      '.sm_dashboards': {
        d1: {
          _meta: { id: 'ov' },
          json: JSON.stringify({
            rows: [{ panels: [panel('source logs-1 | search code=1'), panel('source logs-1 | search host=a')] }],
          }),
        },
      },
    },
  });
  const f = await findStored(api, 'dashboards', cfg, sources(api));
  t.strictSame(JSON.parse(renderStoredJson(f.entries)), [
    {
      pathInJson: 'rows[0].panels[1].viz.options.sme.query',
      dashboard_id: 'ov',
      index: '.sm_dashboards',
      doc_id: 'd1',
      query: { original: 'source logs-1 | search host=a', replacement: 'source logs-1 | search text host=a' },
    },
  ]);
  const text = renderStoredText('dashboards', f.entries, [{ index: '.sm_dashboards', doc_id: 'bad', message: 'x' }], {
    tty: false,
  });
  t.match(text, /dashboard ov rows\[0\]\.panels\[1\]\.viz\.options\.sme\.query {2}\(\.sm_dashboards\/d1\)/);
  t.match(text, /search text host=a\n {27}\^{5}\n/);
  t.match(text, /warning: \.sm_dashboards\/bad: x/);
  t.match(text, /1 panel query to rewrite, 0 to review by hand, 1 unreadable/);
});

t.test('inventory variables override index names and the job query field', async (t) => {
  t.same(storedConfig({}), { jobsIndex: '.sm_jsc_jobs', dashboardsIndex: '.sm_dashboards', jobQueryField: 'query' });
  t.same(storedConfig({ sml_jobs_index: 'j', sml_dashboards_index: 'd', sml_job_query_field: 'spec.q' }), {
    jobsIndex: 'j',
    dashboardsIndex: 'd',
    jobQueryField: 'spec.q',
  });
  const api = fakeCluster({
    mappings: MAPPINGS,
    docs: { myjobs: { a: { spec: { q: 'source logs-1 | search host=x' } } } },
  });
  const f = await findStored(
    api,
    'jobs',
    storedConfig({ sml_jobs_index: 'myjobs', sml_job_query_field: 'spec.q' }),
    sources(api),
  );
  t.match(f, { index: 'myjobs', missing: false, entries: [{ q: { path: 'spec.q', ownerId: 'a' } }] });
  t.match(await findStored(api, 'dashboards', cfg, sources(api)), { missing: true, entries: [] });
});
