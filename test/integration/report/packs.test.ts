import t from 'tap';
import type { CheckResult, Report } from '../../../src/model/index.ts';
import { renderReport } from '../../../src/report/render.ts';
import { compareReports } from '../../../src/report/diff.ts';
import { assertSchema } from '../../helpers/schema.ts';
import { parseMetrics } from '../../helpers/promtool.ts';
import { XMLValidator } from '../../helpers/report/xml.ts';
import { sample } from '../../helpers/report/sample.ts';

// the worst a pack (or a report file read back) can hold: a screen clear, a fake line after NEL and a newline, markup
const WORST = 'Heap\u001b[2J\u001b[H ok\u0085NEL\nline <script>alert(1)</script> | *x* [a](javascript:alert(1))';
const RAW = /[\u001b\u0085\u009b]/;

function packReport(): Report {
  const r = sample();
  const checks: CheckResult[] = [
    {
      id: 'acme/heap',
      order: 6,
      status: 'fail',
      severity: 'high',
      title: WORST,
      why: `why: ${WORST}`,
      docs: 'https://example.org/runbook#heap',
      reason: `Xms differs on 1 node: ${WORST}`,
      findings: [{ host: 'm1', message: `-Xms1g, -Xmx2g ${WORST}`, evidence: { xms: 1073741824 } }],
      actions: [],
    },
    {
      id: 'acme/map-count',
      order: 7,
      status: 'waived',
      severity: 'low',
      title: 'vm.max_map_count',
      why: 'mmap',
      docs: 'javascript:alert(1)',
      waiver: { reason: `OPS-123 ${WORST}`, expires: '2027-01-31' },
      reason: 'below 262144 on m1',
      findings: [{ host: 'm1', kind: 'note', message: 'waived (OPS-123): 65530' }],
      actions: [],
    },
  ];
  r.schema_version = 3;
  r.clusters[0]!.checks.push(...checks);
  return r;
}

t.test(
  'json: pack checks with their full id, severity, title, why, docs and waiver, valid against the schema',
  async (t) => {
    const out = renderReport(packReport(), 'json');
    assertSchema(t, out);
    const doc = JSON.parse(out) as Report;
    t.match(doc.clusters[0]!.checks.slice(-2), [
      { id: 'acme/heap', status: 'fail', severity: 'high', title: String, docs: 'https://example.org/runbook#heap' },
      { id: 'acme/map-count', status: 'waived', waiver: { expires: '2027-01-31' } },
    ]);
    const bad = packReport();
    bad.clusters[0]!.checks[5]!.id = 'acme/Heap <x>' as CheckResult['id'];
    t.not(renderReport(bad, 'json'), undefined);
    t.throws(
      () => assertSchemaStrict(renderReport(bad, 'json')),
      'an id that is neither a vendor id nor pack/id is refused',
    );
  },
);

function assertSchemaStrict(json: string): void {
  let ok = true;
  const fake = { strictSame: (a: unknown, b: unknown) => (ok = JSON.stringify(a) === JSON.stringify(b)) } as never;
  assertSchema(fake, json);
  if (!ok) throw new Error('schema refused');
}

t.test('text: the title, severity, why, docs and waiver; controls shown escaped, never sent', async (t) => {
  const out = renderReport(packReport(), 'text');
  t.notMatch(out, RAW);
  t.match(out, /FAIL 6 acme\/heap — Xms differs/);
  t.match(out, '(severity high)');
  t.match(out, 'docs: https://example.org/runbook#heap');
  t.match(out, /WAIVED 7 acme\/map-count — below 262144 on m1\n +vm\.max_map_count \(severity low\)/);
  t.match(out, 'waived: OPS-123 Heap\\x1b[2J\\x1b[H ok\\x85NEL line');
  // a title's line break does not start a line of its own that could pass for a check
  t.notMatch(out, /^line <script>/m);
});

t.test('markdown: escaped, one line per item, no live link or markup', async (t) => {
  const out = renderReport(packReport(), 'markdown');
  t.notMatch(out, RAW);
  t.notMatch(out, '<script>');
  t.notMatch(out, /(?<!\\)\]\(javascript:/, 'no link: the bracket is escaped');
  t.match(out, '### Pack checks and waivers');
  t.match(
    out,
    /^- `acme\/map-count` — vm\.max_map_count \(severity low\) · why: mmap · docs: javascript:alert\(1\) · waived: OPS-123/m,
  );
});

t.test('junit: valid XML; a waived check is skipped with its waiver; the title in the failure', async (t) => {
  const out = renderReport(packReport(), 'junit');
  t.equal(XMLValidator(out), true);
  t.notMatch(out, RAW);
  t.notMatch(out, '<script>');
  t.match(out, /<testcase classname="[^"]*" name="7 acme\/map-count">\s*<skipped message="waived: OPS-123 Heap/);
  t.match(out, /name="6 acme\/heap">\s*<failure message="Xms differs[^"]*" type="fail">[^<]*\(severity high\)/);
});

t.test('html: the matrix has a column per pack check; escaped; only an http(s) docs link is a link', async (t) => {
  const out = renderReport(packReport(), 'html');
  t.notMatch(out, RAW);
  t.notMatch(out, '<script>alert');
  t.match(out, 'data-check="acme/heap" data-status="fail"');
  t.match(out, /<td class="c[^"]* st-waived" data-check="acme\/map-count" data-status="waived"/);
  t.match(out, '<a href="https://example.org/runbook#heap" rel="noopener noreferrer">');
  t.notMatch(out, 'href="javascript:');
  t.match(out, '<span class="st st-waived">WAIVED</span>');
  t.match(out, 'waived: OPS-123');
});

t.test('prometheus: pack check ids and waived as bounded labels; an id that is no check id is left out', async (t) => {
  const r = packReport();
  r.clusters[0]!.checks.push({ ...r.clusters[0]!.checks[5]!, id: 'not an id {x="1"}' as CheckResult['id'], order: 8 });
  const fams = new Map(parseMetrics(renderReport(r, 'prometheus')).map((f) => [f.name, f]));
  const status = fams.get('smdoctor_check_status')!.metrics;
  t.equal(status.find((m) => m.labels?.check === 'acme/map-count' && m.labels.status === 'waived')?.value, '1');
  t.equal(status.find((m) => m.labels?.check === 'acme/heap' && m.labels.status === 'fail')?.value, '1');
  t.notOk(status.some((m) => m.labels?.check?.startsWith('not an id')));
  const sev = fams.get('smdoctor_check_severity')!.metrics;
  t.same(
    sev
      .filter((m) => m.labels?.cluster?.startsWith('prod'))
      .map((m) => `${m.labels?.check}=${m.labels?.severity}`)
      .slice(-2),
    ['acme/heap=high', 'acme/map-count=low'],
  );
  t.ok(sev.some((m) => m.labels?.check === 'base-limit-document' && m.labels.severity === 'critical'));
});

t.test('diff and history: a pack check that was failing and is now waived is not a regression', async (t) => {
  const old = packReport();
  old.clusters[0]!.checks[6]!.status = 'fail';
  const s = compareReports(old, packReport());
  t.ok(s.comparable);
  if (!s.comparable) return;
  const k = s.clusters[0]!.checks.find((c) => c.id === 'acme/map-count');
  t.match(k, { old: 'fail', new: 'waived' });
  t.not(k && 'change' in k ? k.change : undefined, 'regressed');
});
