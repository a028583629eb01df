/** migrate --apply: every document's backup name fits the file system, maps back to its id, and a failure names it. */
import t from 'tap';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyEntries } from '../../../src/migrate/stored/apply.ts';
import { backupFileName, ID_INDEX } from '../../../src/migrate/stored/backup-names.ts';
import { findStored, storedConfig } from '../../../src/migrate/stored/find.ts';
import { clusterMacros, clusterMappings } from '../../../src/migrate/providers.ts';
import { fakeCluster, MAPPINGS } from '../../helpers/migrate/stored-fake.ts';

const NOW = new Date('2024-05-06T07:08:09.010Z');
const LONG = 'x'.repeat(400);
const IDS = [
  'ж'.repeat(50), // 100 bytes of UTF-8, 300 once URL-encoded
  '😀'.repeat(60),
  `${LONG}-a`,
  `${LONG}-b`, // shares a long prefix with the one before
  '.hidden',
  '..',
  'a/b\\c',
  'plain-id',
];

async function found(ids: string[]) {
  const api = fakeCluster({
    mappings: MAPPINGS,
    docs: {
      '.sm_jsc_jobs': Object.fromEntries(
        ids.map((id, i) => [id, { _meta: { id: `J${i}` }, query: `source logs-1 | search host=x${i}` }]),
      ),
    },
  });
  const f = await findStored(api, 'jobs', storedConfig({}), {
    mappings: clusterMappings(api),
    macros: clusterMacros(api),
  });
  return { api, f };
}

t.test('names: within 255 bytes, no hidden file, distinct for ids that share a long prefix', async (t) => {
  const names = IDS.map(backupFileName);
  for (const [i, n] of names.entries()) {
    t.ok(Buffer.byteLength(n) <= 255, `${JSON.stringify(IDS[i]!.slice(0, 20))}: ${Buffer.byteLength(n)} bytes`);
    t.notOk(n.startsWith('.'), n);
    t.notOk(n.includes('/'), n);
    t.not(n, ID_INDEX);
  }
  t.equal(new Set(names).size, names.length, 'all distinct');
  t.equal(backupFileName('plain-id'), 'plain-id.json', 'a short id keeps its readable name');
});

t.test('--apply: every document is backed up and written, and the index file maps names back to ids', async (t) => {
  const { api, f } = await found(IDS);
  const dir = t.testdir();
  const { results, backupPath } = await applyEntries(api, f.entries, { backupDir: dir, now: NOW });
  t.same(
    [...results.values()].map((r) => r.status),
    IDS.map(() => 'applied'),
  );
  const folder = join(backupPath!, '.sm_jsc_jobs');
  const index = JSON.parse(readFileSync(join(folder, ID_INDEX), 'utf8')) as Record<string, string>;
  t.same(Object.values(index).sort(), [...IDS].sort());
  t.same(readdirSync(folder).sort(), [...Object.keys(index), ID_INDEX].sort());
  for (const [name, id] of Object.entries(index)) {
    const i = IDS.indexOf(id);
    t.match(JSON.parse(readFileSync(join(folder, name), 'utf8')), { query: `source logs-1 | search host=x${i}` });
  }
});

t.test('a backup that cannot be written stops the run naming the document and the cause', async (t) => {
  const { api, f } = await found(['job-one']);
  const dir = t.testdir();
  mkdirSync(join(dir, '20240506T070809.010Z'), { recursive: true });
  writeFileSync(join(dir, '20240506T070809.010Z', '.sm_jsc_jobs'), 'a file where the folder goes');
  await t.rejects(applyEntries(api, f.entries, { backupDir: dir, now: NOW }), {
    code: 'FIX_FAILED',
    message: /\.sm_jsc_jobs\/job-one .*\((EEXIST|ENOTDIR)\): nothing was changed/,
  });
  t.equal(api.seen.filter((r) => r.method === 'PUT').length, 0, 'nothing written');
});
