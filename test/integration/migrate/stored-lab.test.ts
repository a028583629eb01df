import t from 'tap';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { labForFile } from '../../helpers/lab.ts';
import { clusterMacros, clusterMappings } from '../../../src/migrate/providers.ts';
import { applyEntries } from '../../../src/migrate/stored/apply.ts';
import { findStored, storedConfig } from '../../../src/migrate/stored/find.ts';
import { runCli } from '../../helpers/cli.ts';
import { requestAs } from '../../helpers/request-as.ts';

// migrate jobs/dashboards against the healthy lab: lists agree with explain, --apply rewrites safely and once.
const shared = labForFile('healthy');

const cli = (args: string[]) => runCli(['migrate', ...args, '-i', shared.lab.inventoryPath]);
const getDoc = async (index: string, id: string) =>
  (
    await requestAs<{ _source: Record<string, any> }>(shared.target.api, {
      method: 'GET',
      path: `/${index}/_doc/${id}`,
    })
  ).body._source;

t.test('lists match what migrate explain says of each stored query', async (t) => {
  for (const kind of ['jobs', 'dashboards']) {
    const r = await cli([kind, '--format', 'json']);
    t.equal(r.code, 1, `${kind}: replacements found`);
    const list = JSON.parse(r.out) as Array<Record<string, any>>;
    t.ok(list.length >= 2, `${kind}: several entries`);
    for (const e of list) {
      const x = await cli(['explain', '--format', 'json', e.query.original]);
      const exp = JSON.parse(x.out);
      const manual = exp.errors.length > 0 || exp.search_fields.some((f: any) => f.status === 'manual_review');
      t.equal(Boolean(e.manual_review), manual, `${e.doc_id} ${e.pathInJson ?? ''}: manual agrees`);
      t.equal(
        e.query.replacement,
        manual ? exp.original : exp.replacement,
        `${e.doc_id} ${e.pathInJson ?? ''}: replacement agrees`,
      );
    }
  }
  const jobs = JSON.parse((await cli(['jobs', '--format', 'json'])).out);
  t.strictSame(jobs[0], {
    job_id: 'failed-logins',
    index: '.sm_jsc_jobs',
    doc_id: 'job-1',
    query: {
      original: 'source logs-* | search code=401 host=web* | stats count() by host',
      replacement: 'source logs-* | search code=401 text host=web* | stats count() by host',
    },
  });
  t.notOk(
    jobs.some((j: any) => j.doc_id === 'job-2' || j.doc_id === 'job-3'),
    'jobs needing nothing are not listed',
  );
});

t.test('--apply without --yes: a usage error on a pipe, a [y/N] question on a terminal', async (t) => {
  const r = await cli(['jobs', '--apply', '--format', 'json']);
  t.equal(r.code, 2);
  t.match(r.err, /--yes/);
  t.equal(
    (await getDoc('.sm_jsc_jobs', 'job-1')).query,
    'source logs-* | search code=401 host=web* | stats count() by host',
  );
  const no = await runCli(['migrate', 'jobs', '-i', shared.lab.inventoryPath, '--apply', '--format', 'json'], {
    stdinTTY: true,
    stdin: 'n\n',
  });
  t.equal(no.code, 1, 'declined on a terminal: still to do');
  t.match(no.err, /Rewrite 2 queries in \.sm_jsc_jobs .*\[y\/N\]/);
  t.match(JSON.parse(no.out), [{ apply: { status: 'declined' } }, { apply: { status: 'declined' } }]);
  t.equal(
    (await getDoc('.sm_jsc_jobs', 'job-1')).query,
    'source logs-* | search code=401 host=web* | stats count() by host',
  );
});

t.test('a document changed between read and write is a conflict and is not overwritten', async (t) => {
  const sources = {
    mappings: clusterMappings(shared.target.api),
    macros: clusterMacros(shared.target.api, shared.target.macrosIndex),
  };
  const found = await findStored(shared.target.api, 'dashboards', storedConfig(shared.target.vars), sources);
  const edited = { ...(await getDoc('.sm_dashboards', 'dash-2')), title: 'edited meanwhile' };
  const put = await shared.target.api.request({ method: 'PUT', path: '/.sm_dashboards/_doc/dash-2', body: edited });
  t.equal(put.statusCode, 200);
  const { results } = await applyEntries(shared.target.api, found.entries, { backupDir: t.testdir() });
  for (const e of found.entries) {
    const want = e.manual ? 'skipped' : e.q.doc.id === 'dash-2' ? 'conflict' : 'applied';
    t.equal(results.get(e)?.status, want, `${e.q.doc.id} ${e.q.path}`);
  }
  t.same(await getDoc('.sm_dashboards', 'dash-2'), edited, 'the concurrent edit survives');
  t.match(
    (await getDoc('.sm_dashboards', 'dash-1')).json.rows[0].panels[0].viz.options.sme.query,
    'source logs-* | search text host=db01 | stats count() by user',
  );
});

t.test('--apply --yes rewrites, backs up, and a second run finds nothing to replace', async (t) => {
  const backups = t.testdir();
  const dash2Before = (await getDoc('.sm_dashboards', 'dash-2')).json as string;
  const jobs = await cli(['jobs', '--apply', '--yes', '--backup-dir', backups, '--format', 'json']);
  t.equal(jobs.code, 0, jobs.err);
  t.ok(JSON.parse(jobs.out).every((e: any) => e.apply.status === 'applied'));
  const again = await cli(['jobs', '--format', 'json']);
  t.equal(again.code, 0);
  t.same(JSON.parse(again.out), []);
  t.equal(
    (await getDoc('.sm_jsc_jobs', 'job-1')).query,
    'source logs-* | search code=401 text host=web* | stats count() by host',
  );
  t.equal(
    (await getDoc('.sm_jsc_jobs', 'job-4')).query,
    'source logs-2024.01\n| search text service=web\n| search text event.action="login" | table host',
  );

  const dash = await cli(['dashboards', '--apply', '--yes', '--backup-dir', backups, '--format', 'text']);
  t.equal(dash.code, 1, 'a panel for a person remains');
  t.match(dash.out, /applied/);
  t.match(dash.out, /\[manual review\]/);
  const left = JSON.parse((await cli(['dashboards', '--format', 'json'])).out);
  t.match(left, [{ doc_id: 'dash-1', manual_review: true, pathInJson: 'rows[1].panels[0].viz.options.sme.query' }]);
  t.equal(left.length, 1);
  const json = (await getDoc('.sm_dashboards', 'dash-2')).json;
  t.type(json, 'string', 'a string json stays a string');
  t.equal(
    json,
    dash2Before
      .replace('search host=web02', 'search text host=web02')
      .replace('search service=db OR host=db01', 'search text service=db OR text host=db01'),
    'the JSON text is unchanged but for the two queries',
  );
  t.equal(
    JSON.parse(json).rows[0].panels[2].viz.options.sme.query,
    'source logs-2024.01 | search user=bob',
    'untouched panel',
  );

  const stamps = await readdir(backups);
  t.equal(stamps.length, 2, 'one folder per run');
  const all = (
    await Promise.all(stamps.map(async (s) => (await readdir(join(backups, s))).map((i) => `${s}/${i}`)))
  ).flat();
  const jobDir = all.find((p) => p.endsWith('/.sm_jsc_jobs'))!;
  t.same((await readdir(join(backups, jobDir))).sort(), ['@ids.json', 'job-1.json', 'job-4.json']);
  t.equal(
    JSON.parse(await readFile(join(backups, jobDir, 'job-1.json'), 'utf8')).query,
    'source logs-* | search code=401 host=web* | stats count() by host',
  );
});
