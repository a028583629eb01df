import t from 'tap';
import { findStored, storedConfig } from '../../../src/migrate/stored/find.ts';
import { mappingRequests, URL_LIMIT } from '../../../src/migrate/stored/mapfetch.ts';
import { clusterMacros, clusterMappings } from '../../../src/migrate/providers.ts';
import { fakeCluster, MAPPINGS } from '../../helpers/migrate/stored-fake.ts';

// Many stored queries must not make migrate read every mapping of the cluster (GET /_all/_mapping can be hundreds of MB).

const field = (i: number) => `attribute_number_${String(i).padStart(4, '0')}.value`;
const pattern = (i: number) => `app-${String(i).padStart(3, '0')}-logs-*`;

t.test(
  'stored queries with a long field list: only their patterns, every request under the URL limit, never _all',
  async (t) => {
    const jobs: Record<string, Record<string, unknown>> = {};
    for (let i = 0; i < 400; i++)
      jobs[`job-${i}`] = { query: `source logs-1, ${pattern(i % 50)} | search ${field(i)}=x host=web` };
    const api = fakeCluster({ docs: { '.sm_jsc_jobs': jobs }, mappings: MAPPINGS });
    const found = await findStored(api, 'jobs', storedConfig({}), {
      mappings: clusterMappings(api),
      macros: clusterMacros(api),
    });
    t.equal(found.entries.length, 400, 'every job still gets its replacement');
    t.ok(
      found.entries.every((e) => e.explanation.replacement.includes('text host=web')),
      'host resolved through the split requests',
    );
    const maps = api.seen.filter((r) => r.path.includes('_mapping'));
    t.ok(maps.length > 1, `split into ${maps.length} requests`);
    t.notOk(
      maps.some((r) => /(^|\/|,)_all(\/|,|$)/.test(r.path)),
      'never _all',
    );
    t.notOk(
      maps.some((r) => !r.path.includes('/_mapping/field/')),
      'always the field mapping API',
    );
    for (const r of maps)
      t.ok(`GET ${r.path}?ignore_unavailable=true HTTP/1.1`.length <= URL_LIMIT, `${r.path.length} bytes`);
    const asked = new Set(maps.flatMap((r) => r.path.split('/')[1].split(',')));
    t.strictSame(
      [...asked].sort(),
      ['logs-1', ...Array.from({ length: 50 }, (_, i) => pattern(i))].sort(),
      'exactly the patterns used',
    );
    const fields = new Set(maps.flatMap((r) => r.path.split('/_mapping/field/')[1].split(',')));
    for (let i = 0; i < 400; i++) if (!fields.has(field(i))) t.fail(`field ${field(i)} never asked`);
  },
);

t.test('mappingRequests covers every pattern × field pair, each request within the limit', async (t) => {
  const ps = Array.from({ length: 300 }, (_, i) => pattern(i));
  const fs = Array.from({ length: 500 }, (_, i) => field(i));
  const reqs = mappingRequests(ps, fs, 2048);
  const pairs = new Set(reqs.flatMap((r) => r.patterns.flatMap((p) => r.fields.map((f) => `${p} ${f}`))));
  t.equal(pairs.size, ps.length * fs.length, 'every pair once at least');
  for (const r of reqs) t.ok(`/${r.patterns.join(',')}/_mapping/field/${r.fields.join(',')}`.length <= 2048 - 64 + 1);
  t.strictSame(
    mappingRequests(['logs-*'], ['host']),
    [{ patterns: ['logs-*'], fields: ['host'] }],
    'small: one request',
  );
  t.strictSame(mappingRequests([], ['host']), [], 'no source: no request');
});
