/** migrate jobs --apply keeps every field it does not mean to change exact: a 64-bit integer survives, in the document and the backup. */
import t from 'tap';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { labForFile } from '../../helpers/lab.ts';
import { runCli } from '../../helpers/cli.ts';
import { parseLong, stringifyLong } from '../../../src/base/json-long.ts';
import { requestAs } from '../../helpers/request-as.ts';

const shared = labForFile('healthy');
const BIG = '1234567890123456789';
const NEG = '-9223372036854775808';

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.push(join(e.parentPath, e.name));
  return out;
}

t.test('64-bit integers: the lab stores and returns them exactly', async (t) => {
  const api = shared.target.api;
  // a string body goes out as written: no JavaScript number ever holds the value
  const put = await api.request({
    method: 'PUT',
    path: '/long-check/_doc/1',
    body: `{"n": ${BIG}, "m": ${NEG}, "s": 1}`,
  });
  t.equal(put.statusCode, 201);
  const got = await requestAs<{ _source: Record<string, unknown> }>(api, { method: 'GET', path: '/long-check/_doc/1' });
  t.equal(String(got.body._source.n), BIG);
  t.equal(String(got.body._source.m), NEG);
  t.equal(got.body._source.s, 1, 'small numbers stay numbers');
});

t.test('64-bit integers: migrate jobs --apply keeps them in the document and the backup', async (t) => {
  const api = shared.target.api;
  const doc = await requestAs<{ _source: Record<string, unknown> }>(api, {
    method: 'GET',
    path: '/.sm_jsc_jobs/_doc/job-1',
  });
  const text = stringifyLong(doc.body._source).replace(
    /^\{/,
    `{"fingerprint": ${BIG}, "nested": {"ids": [${NEG}, 3]}, `,
  );
  t.equal((await api.request({ method: 'PUT', path: '/.sm_jsc_jobs/_doc/job-1', body: text })).statusCode, 200);
  await api.request({ method: 'POST', path: '/.sm_jsc_jobs/_refresh' });
  const backups = t.testdir();
  const r = await runCli([
    'migrate',
    'jobs',
    '-i',
    shared.lab.inventoryPath,
    '--apply',
    '--yes',
    '--format',
    'json',
    '--backup-dir',
    backups,
  ]);
  t.equal(r.code, 0, r.err);
  const after = await requestAs<{ _source: Record<string, unknown> }>(api, {
    method: 'GET',
    path: '/.sm_jsc_jobs/_doc/job-1',
  });
  const src = after.body._source as { fingerprint: unknown; nested: { ids: unknown[] }; query: string };
  t.equal(String(src.fingerprint), BIG, 'document');
  t.equal(String(src.nested.ids[0]), NEG, 'document, nested');
  t.match(src.query, / text host=web\*/, 'the query was rewritten');
  const saved = (await files(backups)).filter((f) => f.includes('job-1'));
  t.equal(saved.length, 1);
  const backup = await readFile(saved[0], 'utf8');
  t.match(backup, new RegExp(`"fingerprint": ${BIG},`), 'backup');
  t.match(backup, new RegExp(`${NEG},`), 'backup, nested');
  t.equal(String((parseLong(backup) as { fingerprint: unknown }).fingerprint), BIG);
});
