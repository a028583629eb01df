/** The report reader's schema (model/report-shape.ts) and the published one (schema/report.json) agree. */
import t from 'tap';
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { ACTION_STATUSES, CHECK_STATUSES, type Report } from '../../../src/model/index.ts';
import { ReportShape } from '../../../src/model/index.ts';
import { renderReport } from '../../../src/report/render.ts';
import { schemaErrors } from '../../helpers/schema.ts';
import { fixSample, sample } from '../../helpers/report/sample.ts';

const schema = readFileSync(new URL('../../../schema/report.json', import.meta.url), 'utf8');
const asJson = (r: Report): unknown => JSON.parse(renderReport(r, 'json'));

t.test("the schema's status enums are the model's lists", async (t) => {
  const enums = [...schema.matchAll(/"enum": \[([^\]]*)\]/g)].map((m) => JSON.parse(`[${m[1]}]`) as string[]);
  t.ok(
    enums.some((e) => e.join() === CHECK_STATUSES.join()),
    'check statuses',
  );
  t.ok(
    enums.some((e) => e.join() === ACTION_STATUSES.join()),
    'action statuses',
  );
});

const LAYOUT = {
  engine_config: { path: '/etc/opensearch', why: "the running process's OPENSEARCH_PATH_CONF (pid 812)" },
  engine_home: { path: '/usr/share/opensearch', why: "the running process's command line (pid 812)" },
  web_config: { path: '/app/opensearch-dashboards/config', why: "the archive's layout" },
  web_home: { path: '/app/opensearch-dashboards', why: "the archive's layout" },
  refused: ['process OPENSEARCH_HOME: not an absolute path'],
};

// each: how a good report is spoiled
const SPOILED: Array<[string, (r: any) => void]> = [
  ['a null cluster', (r) => (r.clusters[0] = null)],
  ['no checks', (r) => delete r.clusters[0].checks],
  ['an unknown status', (r) => (r.clusters[0].checks[0].status = 'waved"><b>')],
  [
    'an unknown after status',
    (r) => (r.clusters[0].after = { checks: [{ id: 'master-plugins', status: 'x', reason: '' }] }),
  ],
  ['an unknown field', (r) => (r.clusters[0].extra = 1)],
  ['a finding without message', (r) => delete r.clusters[0].notes[0].message],
  ['a negative count', (r) => (r.summary.hosts = -1)],
  ['another mode', (r) => (r.mode = 'migrate')],
  ['an action status', (r) => (r.clusters[0].checks[1].actions[0].status = 'maybe')],
  ['a time that is not one', (r) => (r.generated_at = 'yesterday')],
  ['a check id of no form', (r) => (r.clusters[0].checks[0].id = 'Acme/Heap')],
  ['a waiver without its reason', (r) => (r.clusters[0].checks[0].waiver = { expires: '2027-01-31' })],
  ['a severity of no rank', (r) => (r.clusters[0].checks[0].severity = 'urgent')],
  [
    'a layout folder without its reason',
    (r) => (r.clusters[0].nodes[0].layout = { ...LAYOUT, engine_home: { path: '/x' } }),
  ],
  [
    'a layout without the web folders',
    (r) => (r.clusters[0].nodes[0].layout = { engine_config: LAYOUT.engine_config, engine_home: LAYOUT.engine_home }),
  ],
];

t.test('good reports pass both; each spoiled one fails both', async (t) => {
  const packed = sample();
  packed.clusters[0]!.checks.push({
    ...packed.clusters[0]!.checks[0]!,
    id: 'acme-search/heap-xms-equals-xmx',
    order: 6,
    status: 'waived',
    severity: 'high',
    title: 'Xms and Xmx are equal',
    why: 'A heap that grows pauses the node.',
    docs: 'https://example.org/runbook',
    waiver: { reason: 'OPS-123', expires: '2027-01-31' },
  });
  const laid = sample();
  laid.clusters[0]!.nodes[0]!.layout = LAYOUT;
  for (const r of [sample(), fixSample(), packed, laid]) {
    const doc = asJson({ ...r, generated_at: '2026-11-27T00:00:00.000Z' });
    t.strictSame(schemaErrors(doc), [], `${r.mode}: schema/report.json`);
    t.ok(v.safeParse(ReportShape, doc).success, `${r.mode}: the reader`);
  }
  for (const [what, spoil] of SPOILED) {
    const doc = asJson(fixSample()) as Record<string, any>;
    spoil(doc);
    t.not(schemaErrors(doc).length, 0, `${what}: schema/report.json refuses it`);
    t.notOk(v.safeParse(ReportShape, doc).success, `${what}: the reader refuses it`);
  }
});
