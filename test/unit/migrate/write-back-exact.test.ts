/** migrate --apply never writes back a document whose other fields would change: it refuses it, with the reason. */
import t from 'tap';
import { applyEntries } from '../../../src/migrate/stored/apply.ts';
import { findStored, storedConfig } from '../../../src/migrate/stored/find.ts';
import { clusterMacros, clusterMappings } from '../../../src/migrate/providers.ts';
import { fakeCluster, MAPPINGS } from '../../helpers/migrate/stored-fake.ts';

// what the client's JSON reader makes of 1e400, -0 and an unpaired surrogate: values that cannot be written back as read
const CASES: Array<[string, Record<string, unknown>, RegExp]> = [
  ['1e400', { stats: { max: Infinity } }, /stats\.max holds a number beyond a double/],
  ['-1e400', { stats: [1, -Infinity] }, /stats\[1\] holds a number beyond a double/],
  ['-0', { offset: -0 }, /offset holds -0/],
  ['lone surrogate', { note: 'a\uFFFDb', id: 9007199254740993n }, /note holds text that did not decode/],
];

t.test('a document that cannot be written back exactly is refused alone, with the reason', async (t) => {
  for (const [what, extra, why] of CASES) {
    const api = fakeCluster({
      mappings: MAPPINGS,
      docs: {
        '.sm_jsc_jobs': {
          bad: { _meta: { id: 'B' }, query: 'source logs-1 | search host=x', ...extra },
          good: { _meta: { id: 'G' }, query: 'source logs-1 | search host=y' },
        },
      },
    });
    const f = await findStored(api, 'jobs', storedConfig({}), {
      mappings: clusterMappings(api),
      macros: clusterMacros(api),
    });
    const { results } = await applyEntries(api, f.entries, { backupDir: t.testdir(), now: new Date(0) });
    const by = new Map([...results].map(([e, r]) => [e.q.doc.id, r]));
    t.equal(by.get('bad')?.status, 'skipped', what);
    t.match(by.get('bad')?.message, why, what);
    t.equal(by.get('good')?.status, 'applied', `${what}: the other document is rewritten`);
    const puts = api.seen.filter((r) => r.method === 'PUT').map((r) => r.path);
    t.same(puts, ['/.sm_jsc_jobs/_doc/good'], `${what}: no write to the refused document`);
    t.equal(api.store.get('.sm_jsc_jobs')!.get('bad')!.source.query, 'source logs-1 | search host=x');
  }
});
