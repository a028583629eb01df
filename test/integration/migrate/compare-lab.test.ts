import t from 'tap';
import { labForFile } from '../../helpers/lab.ts';
import { runCli } from '../../helpers/cli.ts';
import { SERVICE_FAULT_ENV } from '../../../lab/src/api/migration-fault.ts';

// --source compare: silent when smdoctor and the service agree, every difference (exit 3) when the service is wrong.
const shared = labForFile('healthy');
const cli = (args: string[]) => runCli(['migrate', ...args, '-i', shared.lab.inventoryPath]);
const faulty = (t: { teardown: (f: () => void) => void }) => {
  process.env[SERVICE_FAULT_ENV] = 'keyword-rule';
  t.teardown(() => void delete process.env[SERVICE_FAULT_ENV]);
};

t.test('a correct service: compare agrees and exits as local would', async (t) => {
  for (const kind of ['jobs', 'dashboards']) {
    const r = await cli([kind, '--source', 'compare', '--format', 'json']);
    t.equal(r.code, 1, `${kind}: something to migrate, no difference`);
    const out = JSON.parse(r.out);
    t.equal(out.agree, true);
    t.strictSame(out.differences, []);
    t.strictSame(out.service, JSON.parse((await cli([kind, '--source', 'service', '--format', 'json'])).out));
  }
  const x = await cli([
    'explain',
    '--source',
    'compare',
    '--format',
    'json',
    'source logs-2024.01 | search user=bob host=a',
  ]);
  t.equal(x.code, 1);
  t.match(JSON.parse(x.out), { agree: true, differences: [] });
});

t.test(
  'a service wrong for text fields without a keyword sub-field: dashboards compare names the query, both answers, exit 3',
  async (t) => {
    faulty(t);
    const r = await cli(['dashboards', '--source', 'compare', '--format', 'json']);
    t.equal(r.code, 3);
    const out = JSON.parse(r.out);
    t.equal(out.agree, false);
    t.match(out.differences, [
      {
        index: '.sm_dashboards',
        doc_id: 'dash-2',
        pathInJson: 'rows[0].panels[2].viz.options.sme.query',
        local: null,
        service: {
          query: {
            original: 'source logs-2024.01 | search user=bob',
            replacement: 'source logs-2024.01 | search text user=bob',
          },
        },
        differences: [{ path: '', local: null, service: { dashboard_id: 'exported' } }],
      },
    ]);
    const text = await cli(['dashboards', '--source', 'compare', '--format', 'text']);
    t.equal(text.code, 3);
    t.match(
      text.out,
      /dashboard exported rows\[0\]\.panels\[2\]\.viz\.options\.sme\.query  \(\.sm_dashboards\/dash-2\): listed by the service only/,
    );
    t.match(text.out, /result: 1 of \d+ listed queries differ between local and service/);
  },
);

t.test('explain compare: each differing field with the local and the service value', async (t) => {
  faulty(t);
  const q = 'source logs-2024.01 | search user=bob host=a';
  const r = await cli(['explain', '--source', 'compare', '--format', 'json', q]);
  t.equal(r.code, 3);
  const out = JSON.parse(r.out);
  t.equal(out.agree, false);
  const byPath = Object.fromEntries(out.differences.map((d: any) => [d.path, d]));
  t.match(byPath.replacement, {
    local: 'source logs-2024.01 | search user=bob text host=a',
    service: 'source logs-2024.01 | search text user=bob text host=a',
  });
  t.match(byPath['search_fields[0].status'], { local: 'no_keyword_subfield', service: 'text_op_added' });
  t.equal(out.local.replacement, byPath.replacement.local, 'both whole answers are in the report');
  t.equal(out.service.replacement, byPath.replacement.service);
  const text = await cli(['explain', '--source', 'compare', '--format', 'text', q]);
  t.match(
    text.out,
    /local and service differ \(\d+\):\n  replacement:\n    local:   source logs-2024\.01 \| search user=bob text host=a\n    service: source logs-2024\.01 \| search text user=bob text host=a/,
  );
});

t.test('--source service prints the service answer; --apply works only from local analysis', async (t) => {
  faulty(t);
  const r = await cli(['explain', '--source', 'service', '--format', 'json', 'source logs-2024.01 | search user=bob']);
  t.equal(r.code, 1, 'the (wrong) service says it needs migration');
  t.equal(JSON.parse(r.out).replacement, 'source logs-2024.01 | search text user=bob');
  const a = await cli(['jobs', '--source', 'service', '--apply', '--yes']);
  t.equal(a.code, 2);
  t.match(a.err, /--source local/);
});
