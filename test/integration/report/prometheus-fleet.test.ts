/** The example rules' alerts for the fleet pack's critical checks (certificate expiry, demo certificates), under promtool. */
import t from 'tap';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import type { CheckResult } from '../../../src/model/index.ts';
import { renderReport } from '../../../src/report/render.ts';
import { parseMetrics, promtool, runPromtool } from '../../helpers/promtool.ts';
import { sample } from '../../helpers/report/sample.ts';

const RULES = new URL('../../../docs/prometheus/smdoctor-rules.yml', import.meta.url).pathname;
const CLUSTER = { cluster: 'prod', api_url: 'https://10.0.0.1:9200' };
const FLEET = [
  'fleet/tls-certificate-expiry',
  'fleet/tls-certificate-expiry-critical',
  'fleet/demo-certificates',
  'fleet/demo-certificates-allowed',
] as const;

/** smdoctor_check_status as smdoctor writes it: one series per status, 1 for the one the check has. */
const statusSeries = (check: string, status: string) =>
  ['pass', 'fail', 'error', 'skip'].map((s) => ({
    series: `smdoctor_check_status{api_url="${CLUSTER.api_url}",check="${check}",cluster="${CLUSTER.cluster}",status="${s}"}`,
    values: `${s === status ? 1 : 0}x60`,
  }));

async function ruleTest(dir: string, failing: readonly string[], tests: unknown[]) {
  const file = join(dir, 'rules.test.yml');
  const input_series = FLEET.flatMap((c) => statusSeries(c, failing.includes(c) ? 'fail' : 'pass'));
  await writeFile(
    file,
    stringify({
      rule_files: [RULES],
      evaluation_interval: '1m',
      tests: [{ interval: '1m', input_series, alert_rule_test: tests }],
    }),
  );
  return runPromtool(['test', 'rules', file]);
}

/** An alert's annotations as Prometheus fills them for CLUSTER (only the two labels the fleet alerts use). */
function annotations(alertname: string): Record<string, string> {
  const rules = (
    parse(readFileSync(RULES, 'utf8')) as {
      groups: Array<{ rules: Array<{ alert?: string; annotations: Record<string, string> }> }>;
    }
  ).groups.flatMap((g) => g.rules);
  const fill = (s: string) =>
    s.replaceAll('{{ $labels.cluster }}', CLUSTER.cluster).replaceAll('{{ $labels.api_url }}', CLUSTER.api_url);
  const rule = rules.find((r) => r.alert === alertname)!;
  return Object.fromEntries(Object.entries(rule.annotations).map(([k, v]) => [k, fill(v)]));
}

const noPromtool = promtool() ? false : 'promtool not installed (apt-get install prometheus)';

t.test(
  'the fleet alerts fire on their check failing, at their severity, and not on a pass',
  { skip: noPromtool },
  async (t) => {
    const check = await runPromtool(['check', 'rules', RULES]);
    t.equal(check.code, 0, check.out);
    const fired = (alertname: string, checks: string[], severity: string, summary: string, eval_time = '20m') => {
      const exp_annotations = annotations(alertname);
      t.equal(exp_annotations.summary, summary, `${alertname}: its summary`);
      return {
        eval_time,
        alertname,
        exp_alerts: checks.map((check) => ({
          exp_labels: { ...CLUSTER, check, status: 'fail', severity },
          exp_annotations,
        })),
      };
    };
    const cases: Array<[what: string, failing: string[], tests: unknown[]]> = [
      [
        '30 days: a warning after 15 minutes, not at once',
        ['fleet/tls-certificate-expiry'],
        [
          { eval_time: '10m', alertname: 'SmdoctorTlsCertificateExpiring', exp_alerts: [] },
          fired(
            'SmdoctorTlsCertificateExpiring',
            ['fleet/tls-certificate-expiry'],
            'warning',
            'A TLS certificate of prod expires within 30 days',
          ),
          { eval_time: '20m', alertname: 'SmdoctorTlsCertificateExpiresThisWeek', exp_alerts: [] },
        ],
      ],
      [
        '7 days: critical at once',
        ['fleet/tls-certificate-expiry-critical'],
        [
          fired(
            'SmdoctorTlsCertificateExpiresThisWeek',
            ['fleet/tls-certificate-expiry-critical'],
            'critical',
            'A TLS certificate of prod expires within 7 days',
            '1m',
          ),
        ],
      ],
      [
        'the demo certificate and the demo switch: each one critical',
        ['fleet/demo-certificates', 'fleet/demo-certificates-allowed'],
        [
          fired(
            'SmdoctorDemoCertificates',
            ['fleet/demo-certificates', 'fleet/demo-certificates-allowed'],
            'critical',
            'Demo certificates in use or allowed on prod',
            '1m',
          ),
        ],
      ],
      [
        'all passing: none of them',
        [],
        ['SmdoctorTlsCertificateExpiring', 'SmdoctorTlsCertificateExpiresThisWeek', 'SmdoctorDemoCertificates'].map(
          (alertname) => ({ eval_time: '30m', alertname, exp_alerts: [] }),
        ),
      ],
    ];
    for (const [what, failing, tests] of cases) {
      const res = await ruleTest(t.testdir({}), failing, tests);
      t.equal(res.code, 0, `${what}\n${res.out}`);
    }
  },
);

t.test('smdoctor writes the pack checks the rules select', async (t) => {
  const r = sample();
  const base = r.clusters[0]!.checks[0]!;
  const pack = (id: (typeof FLEET)[number], status: CheckResult['status']): CheckResult => ({
    ...base,
    id,
    order: 10,
    status,
    severity: 'critical',
    title: id,
    findings: [],
    actions: [],
  });
  r.clusters[0]!.checks.push(
    pack('fleet/tls-certificate-expiry-critical', 'fail'),
    pack('fleet/demo-certificates', 'pass'),
  );
  const fams = parseMetrics(renderReport(r, 'prometheus'));
  const status = fams.find((f) => f.name === 'smdoctor_check_status')?.metrics ?? [];
  const of = (check: string) =>
    status.filter((m) => m.labels?.check === check && m.value === '1').map((m) => m.labels?.status);
  t.same(of('fleet/tls-certificate-expiry-critical'), ['fail']);
  t.same(of('fleet/demo-certificates'), ['pass']);
});
