import t from 'tap';
import { readdir, readFile, stat } from 'node:fs/promises';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { applyEntries } from '../../../src/migrate/stored/apply.ts';
import { findStored, storedConfig } from '../../../src/migrate/stored/find.ts';
import { renderStoredJson } from '../../../src/migrate/stored/output.ts';
import { clusterMacros, clusterMappings } from '../../../src/migrate/providers.ts';
import { fakeCluster, MAPPINGS, type FakeOptions } from '../../helpers/migrate/stored-fake.ts';

const cfg = storedConfig({});
const panel = (query: string) => ({ title: 'p', viz: { options: { sme: { query } } } });
const rows = [
  {
    panels: [
      panel('source logs-1 | search host=a'),
      panel('source logs-1 | search code=1'),
      panel('source logs-1 | search host=b'),
    ],
  },
];
const NOW = new Date('2024-05-06T07:08:09.010Z');

async function setup(o: Partial<FakeOptions> = {}) {
  const api = fakeCluster({
    mappings: MAPPINGS,
    macros: [{ name: 'web', args: [], definition: 'host=web*' }],
    docs: {
      '.sm_jsc_jobs': {
        j1: { _meta: { id: 'J1' }, query: 'source logs-1 | search host=x', owner: 'ops' },
        j2: { _meta: { id: 'J2' }, query: 'source logs-2 | search host=y' },
        j3: { _meta: { id: 'J3' }, query: 'source logs-1 | search `web`' },
      },
      '.sm_dashboards': {
        obj: { _meta: { id: 'O' }, json: { rows } },
        str: { _meta: { id: 'S' }, json: `${JSON.stringify({ rows }, null, 4)}\n` },
        tab: { _meta: { id: 'T' }, json: JSON.stringify({ rows }, null, '\t') },
        flat: { _meta: { id: 'F' }, json: JSON.stringify({ rows }) },
      },
    },
    ...o,
  });
  const sources = { mappings: clusterMappings(api), macros: clusterMacros(api) };
  return { api, find: (kind: 'jobs' | 'dashboards') => findStored(api, kind, cfg, sources) };
}

t.test('jobs: backups before PUTs, if_seq_no/if_primary_term, a 409 on one job leaves it alone', async (t) => {
  const dir = t.testdir();
  // what was backed up when the first PUT came
  const atFirstPut: { backedUp?: string[] } = {};
  const { api, find } = await setup({
    onPut: (index, id, fake) => {
      atFirstPut.backedUp ??= readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) =>
        f.endsWith('.json'),
      );
      if (id === 'j2') fake.bump(index, id);
    },
  });
  const f = await find('jobs');
  const { results, backupPath } = await applyEntries(api, f.entries, { backupDir: dir, now: NOW });
  t.same(
    atFirstPut.backedUp?.map((f) => basename(f)).sort(),
    (await readdir(backupPath!, { recursive: true, encoding: 'utf8' }))
      .filter((f) => f.endsWith('.json'))
      .map((f) => basename(f))
      .sort(),
    'no PUT before the backups were written',
  );
  t.ok(atFirstPut.backedUp?.length, 'the backups were there at the first PUT');
  t.equal(backupPath, join(dir, '20240506T070809.010Z'));
  const byDoc = Object.fromEntries(f.entries.map((e) => [e.q.doc.id, results.get(e)]));
  t.same(byDoc, {
    j1: { status: 'applied' },
    j2: { status: 'conflict', message: 'changed since it was read: re-run' },
    j3: { status: 'skipped', message: String(byDoc.j3?.message) },
  });
  const puts = api.seen.filter((r) => r.method === 'PUT');
  t.equal(puts.length, 2, 'manual j3 is never written');
  const j1 = f.entries.find((e) => e.q.doc.id === 'j1')!.q.doc;
  t.match(puts[0], { path: '/.sm_jsc_jobs/_doc/j1', querystring: { if_seq_no: j1.seqNo, if_primary_term: 1 } });
  t.same(
    api.store.get('.sm_jsc_jobs')!.get('j1')!.source,
    { _meta: { id: 'J1' }, query: 'source logs-1 | search text host=x', owner: 'ops' },
    'whole document, other fields kept',
  );
  t.same(api.store.get('.sm_jsc_jobs')!.get('j2')!.source.touched, true, 'the concurrent write survives');
  const files = await readdir(join(backupPath!, '.sm_jsc_jobs'));
  t.same(files.sort(), ['@ids.json', 'j1.json', 'j2.json']);
  t.same(JSON.parse(await readFile(join(backupPath!, '.sm_jsc_jobs', 'j1.json'), 'utf8')), {
    _meta: { id: 'J1' },
    query: 'source logs-1 | search host=x',
    owner: 'ops',
  });
  t.equal((await stat(join(backupPath!, '.sm_jsc_jobs', 'j1.json'))).mode & 0o777, 0o600);
  t.equal((await stat(backupPath!)).mode & 0o777, 0o700);
  t.equal((await stat(join(backupPath!, '.sm_jsc_jobs'))).mode & 0o777, 0o700);
  t.match(JSON.parse(renderStoredJson(f.entries, results)), [
    { job_id: 'J1', apply: { status: 'applied' } },
    { job_id: 'J2', apply: { status: 'conflict' } },
    { job_id: 'J3', manual_review: true, apply: { status: 'skipped' } },
  ]);
  const again = await find('jobs');
  t.same(
    again.entries.map((e) => e.q.doc.id),
    ['j2', 'j3'],
    'second run: only the conflicted and the manual remain',
  );
});

t.test('dashboards: one PUT per document, json kept in its form and indentation', async (t) => {
  const dir = t.testdir();
  const { api, find } = await setup();
  const f = await find('dashboards');
  t.equal(f.entries.length, 8, 'two panels in each of four dashboards');
  const { results } = await applyEntries(api, f.entries, { backupDir: dir, now: NOW });
  t.ok([...results.values()].every((r) => r.status === 'applied'));
  t.equal(api.seen.filter((r) => r.method === 'PUT').length, 4, 'one PUT per dashboard');
  const want = structuredClone(rows);
  want[0].panels[0].viz.options.sme.query = 'source logs-1 | search text host=a';
  want[0].panels[2].viz.options.sme.query = 'source logs-1 | search text host=b';
  const src = (id: string) => api.store.get('.sm_dashboards')!.get(id)!.source.json;
  t.same(src('obj'), { rows: want }, 'object stays object');
  t.equal(src('str'), `${JSON.stringify({ rows: want }, null, 4)}\n`, 'string stays string, 4 spaces and newline kept');
  t.equal(src('tab'), JSON.stringify({ rows: want }, null, '\t'), 'tabs kept');
  t.equal(src('flat'), JSON.stringify({ rows: want }), 'compact stays compact');
  t.same((await find('dashboards')).entries, [], 'idempotent: nothing left');
  t.same(
    JSON.parse(await readFile(join(dir, '20240506T070809.010Z', '.sm_dashboards', 'tab.json'), 'utf8')).json,
    JSON.stringify({ rows }, null, '\t'),
    'backup holds the original string',
  );
});

t.test(
  'a document changed so the query is no longer there fails alone; an unwritable backup dir stops before any PUT',
  async (t) => {
    const { api, find } = await setup();
    const f = await find('jobs');
    f.entries[0].q.doc.source = { query: 'something else' };
    const { results } = await applyEntries(api, f.entries, { backupDir: t.testdir(), now: NOW });
    t.match(results.get(f.entries[0]), { status: 'failed', message: /no longer holds/ });
    t.match(results.get(f.entries[1]), { status: 'applied' });

    const again = await setup();
    const g = await again.find('jobs');
    const file = join(t.testdir({ blocker: 'x' }), 'blocker');
    await t.rejects(applyEntries(again.api, g.entries, { backupDir: file, now: NOW }), { code: 'FIX_FAILED' });
    t.equal(again.api.seen.filter((r) => r.method === 'PUT').length, 0);
  },
);

t.test('a json string keeps its exact text except the rewritten queries', async (t) => {
  const odd =
    '{"rows": [ {"panels":[{"viz" : {"options": {"sme": {"query": "source logs-1 | search host=\\u0061"}}}},\r\n' +
    '   {"title": "caf\\u00e9 \\"q\\"", "viz": {"options": {"sme": {"query": "source logs-1 | search code=1"}}}}]}],  "x" : [1, 2.5e3, true, null]}';
  const { api, find } = await setup({ docs: { '.sm_dashboards': { odd: { _meta: { id: 'odd' }, json: odd } } } });
  const f = await find('dashboards');
  t.equal(f.entries.length, 1);
  const { results } = await applyEntries(api, f.entries, { backupDir: t.testdir(), now: NOW });
  t.equal(results.get(f.entries[0])?.status, 'applied');
  t.equal(
    api.store.get('.sm_dashboards')!.get('odd')!.source.json,
    odd.replace('"source logs-1 | search host=\\u0061"', '"source logs-1 | search text host=a"'),
  );
});
