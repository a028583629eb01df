/** --format prometheus: the text format parsed back, Prometheus naming, bounded labels, promtool's checks, the example rules. */
import t from 'tap';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { Report } from '../../../src/model/index.ts';
import { renderReport } from '../../../src/report/render.ts';
import { exposition } from '../../../src/report/prometheus/exposition.ts';
import { parseMetrics, promtool, runPromtool } from '../../helpers/promtool.ts';
import { fixSample, sample } from '../../helpers/report/sample.ts';

const RULES = new URL('../../../docs/prometheus/smdoctor-rules.yml', import.meta.url).pathname;

const hostile = (): Report => {
  const r = sample();
  r.clusters[0]!.name = 'prod "eu"\\west\nline two';
  r.generated_at = '2026-11-25T07:00:00.000Z';
  return r;
};

t.test('parsed back: every family has HELP and TYPE, values per cluster and check', async (t) => {
  const text = renderReport(hostile(), 'prometheus', { durationSeconds: 2.5 });
  const fams = parseMetrics(text);
  const by = new Map(fams.map((f) => [f.name, f]));
  for (const f of fams) {
    t.ok(f.help.length > 10, `${f.name} has HELP`);
    t.equal(f.type, 'GAUGE', `${f.name} is a gauge (nothing here is a counter)`);
    t.match(f.name, /^smdoctor_[a-z_]+$/, 'snake case, one prefix');
    t.notMatch(f.name, /_total$/, '_total only for counters');
  }
  const status = by.get('smdoctor_check_status')!.metrics;
  const one = (check: string, st: string) =>
    status.find(
      (m) => m.labels?.check === check && m.labels.status === st && m.labels.cluster === hostile().clusters[0]!.name,
    );
  t.equal(one('master-node-with-sme', 'fail')?.value, '1', 'the failing check, its label escaped and read back whole');
  t.equal(one('master-node-with-sme', 'pass')?.value, '0');
  t.equal(one('base-limit-document', 'pass')?.value, '1');
  t.equal(by.get('smdoctor_check_findings')!.metrics.find((m) => m.labels?.check === 'master-plugins')?.value, '1');
  t.equal(
    by.get('smdoctor_planned_actions')!.metrics.find((m) => m.labels?.check === 'master-node-with-sme')?.value,
    '2',
  );
  t.equal(by.get('smdoctor_run_duration_seconds')!.metrics[0]!.value, '2.5');
  t.equal(
    by.get('smdoctor_last_run_timestamp_seconds')!.metrics[0]!.value,
    String(Date.parse('2026-11-25T07:00:00Z') / 1000),
  );
  const labels = new Set(fams.flatMap((f) => f.metrics.flatMap((m) => Object.keys(m.labels ?? {}))));
  t.same([...labels].sort(), ['api_url', 'check', 'cluster', 'mode', 'severity', 'status'], 'bounded labels only');
});

t.test('fix: the state after applying, and what became of the actions', async (t) => {
  const fixed = fixSample();
  fixed.clusters[0]!.after!.checks.push({ id: 'master-plugins', status: 'pass', reason: 'fixed' });
  const fams = parseMetrics(renderReport(fixed, 'prometheus'));
  const by = new Map(fams.map((f) => [f.name, f]));
  t.same(
    by.get('smdoctor_fix_actions')!.metrics.map((m) => [m.labels?.status, m.value]),
    [
      ['done', '2'],
      ['failed', '1'],
      ['skipped', '1'],
    ],
  );
  t.same(
    by.get('smdoctor_cluster_refused')!.metrics.map((m) => m.value),
    ['0', '1'],
  );
  const first = by.get('smdoctor_check_status')!.metrics.filter((m) => m.labels?.api_url === 'https://10.0.0.1:9200');
  t.same(
    first.filter((m) => m.value === '1').map((m) => [m.labels?.check, m.labels?.status]),
    [
      ['base-limit-document', 'pass'],
      ['master-node-with-sme', 'fail'],
      ['dashboards-hosts', 'error'],
      ['master-plugins', 'pass'],
      ['limits-index-replicas', 'skip'],
    ],
    'after a fix, each check as the audit after applying saw it (the others as audited)',
  );
});

t.test('the same label set twice is written once; a bad name is refused', async (t) => {
  const text = exposition([
    {
      name: 'x_seconds',
      help: 'h',
      type: 'gauge',
      samples: [
        { labels: { a: '1' }, value: 1 },
        { labels: { a: '1' }, value: 2 },
      ],
    },
  ]);
  t.equal(text.split('\n').filter((l) => l.startsWith('x_seconds')).length, 1);
  t.throws(() => exposition([{ name: 'bad-name', help: 'h', type: 'gauge', samples: [] }]));
  t.throws(() =>
    exposition([{ name: 'ok', help: 'h', type: 'gauge', samples: [{ labels: { 'a-b': 'x' }, value: 1 }] }]),
  );
});

t.test(
  'promtool check metrics accepts audit and fix output',
  { skip: promtool() ? false : 'promtool not installed (apt-get install prometheus)' },
  async (t) => {
    for (const r of [hostile(), fixSample()]) {
      const res = await runPromtool(['check', 'metrics'], renderReport(r, 'prometheus', { durationSeconds: 1 }));
      t.equal(res.code, 0, res.out);
      t.notMatch(res.out, /error|problem|should/i, 'no lint complaint');
    }
    // the lint can fail: a gauge named like a counter is reported (exit 3)
    const bad = await runPromtool(['check', 'metrics'], '# HELP x_total h\n# TYPE x_total gauge\nx_total 1\n');
    t.equal(bad.code, 3);
    t.match(bad.out, 'should not have "_total" suffix');
  },
);

t.test(
  'the example rules are valid and fire on what smdoctor writes',
  { skip: promtool() ? false : 'promtool not installed (apt-get install prometheus)' },
  async (t) => {
    const check = await runPromtool(['check', 'rules', RULES]);
    t.equal(check.code, 0, check.out);
    // the rules unit-tested on smdoctor's own output: each sample becomes a constant series for an hour
    const r = hostile();
    r.clusters[0]!.name = 'prod';
    r.clusters[0]!.checks[0]!.status = 'fail';
    const series = parseMetrics(renderReport(r, 'prometheus'))
      .filter((f) => f.name.startsWith('smdoctor_check_status'))
      .flatMap((f) =>
        f.metrics.map((m) => ({
          series: `${f.name}{${Object.entries(m.labels ?? {})
            .map(([k, v]) => `${k}="${v}"`)
            .join(',')}}`,
          values: `${m.value}x60`,
        })),
      );
    const labels = { cluster: 'prod', api_url: 'https://10.0.0.1:9200', status: 'fail' };
    const dir = t.testdir({});
    const testFile = join(dir, 'rules.test.yml');
    await writeFile(
      testFile,
      stringify({
        rule_files: [RULES],
        evaluation_interval: '1m',
        tests: [
          {
            interval: '1m',
            input_series: series,
            alert_rule_test: [
              {
                eval_time: '20m',
                alertname: 'SmdoctorBaseLimitDocumentMissing',
                exp_alerts: [
                  {
                    exp_labels: { ...labels, check: 'base-limit-document', severity: 'critical' },
                    exp_annotations: {
                      summary: 'Base user limit not found in prod',
                      description:
                        'The base limit document of prod (https://10.0.0.1:9200) is missing: searches fail with "Error while parsing limits: Base user limit not found in index". Run smdoctor fix, or see its audit report.',
                    },
                  },
                ],
              },
              {
                eval_time: '20m',
                alertname: 'SmdoctorMasterWithNodeWithSme',
                exp_alerts: [
                  {
                    exp_labels: { ...labels, check: 'master-node-with-sme', severity: 'warning' },
                    exp_annotations: {
                      summary: 'A master node of prod has node_with_sme set',
                      description: 'node.attr.node_with_sme is true on a master node of prod (https://10.0.0.1:9200).',
                    },
                  },
                ],
              },
              { eval_time: '5m', alertname: 'SmdoctorBaseLimitDocumentMissing', exp_alerts: [] },
            ],
          },
        ],
      }),
    );
    const res = await runPromtool(['test', 'rules', testFile]);
    t.equal(res.code, 0, res.out);
  },
);
