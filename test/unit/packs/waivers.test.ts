import t from 'tap';
import type { Action, CheckResult, Report, Waiver } from '../../../src/model/index.ts';
import { applyWaivers } from '../../../src/packs/judge/waivers.ts';
import { auditOutcome } from '../../../src/facts/outcome.ts';
import { counts } from '../../../src/packs/judge/severity.ts';

const restart = (host: string): Action => ({
  type: 'restart-service',
  host,
  service: 'opensearch',
  command: `systemctl restart opensearch`,
  status: 'planned',
});
const setYaml = (host: string): Action =>
  ({
    type: 'set-yaml',
    host,
    file: '/etc/opensearch/opensearch.yml',
    key: 'bootstrap.memory_lock',
    value: true,
    status: 'planned',
  }) as unknown as Action;

function check(id: string, o: Partial<CheckResult> = {}): CheckResult {
  return { id: id as CheckResult['id'], order: 6, status: 'fail', reason: 'r', findings: [], actions: [], ...o };
}

function report(checks: CheckResult[]): Report {
  return {
    tool: 'smdoctor',
    version: '0.4.0',
    mode: 'audit',
    clusters: [{ api_url: 'https://10.0.0.1:9200', name: 'prod-eu', nodes: [], notes: [], checks }],
    summary: { clusters: 1, hosts: 2, unreachable: 0, checks_failed: checks.filter((k) => k.status === 'fail').length },
  };
}

const heap = () =>
  check('acme/heap', {
    severity: 'high',
    findings: [
      { host: 'd1', message: 'Xms 1g, Xmx 2g' },
      { host: 'd2', message: 'Xms 1g, Xmx 4g' },
    ],
    actions: [setYaml('d1'), setYaml('d2')],
  });
const w = (o: Partial<Waiver> = {}): Waiver => ({ check: 'acme/heap', reason: 'OPS-123', at: 'w.yml:3', ...o });
const opts = { today: '2027-01-15', known: ['acme/heap', 'master-plugins'] };

t.test('waivers, case by case', async (t) => {
  const cases: Array<{
    name: string;
    waivers: Waiver[];
    status: string;
    actions: number;
    notes: number;
    warn: RegExp[];
  }> = [
    { name: 'no waiver', waivers: [], status: 'fail', actions: 2, notes: 0, warn: [] },
    {
      name: 'the whole check',
      waivers: [w({ expires: '2027-01-31' })],
      status: 'waived',
      actions: 0,
      notes: 0,
      warn: [],
    },
    {
      name: 'expires today: still holds',
      waivers: [w({ expires: '2027-01-15' })],
      status: 'waived',
      actions: 0,
      notes: 0,
      warn: [],
    },
    {
      name: 'expired: ignored and said',
      waivers: [w({ expires: '2027-01-14' })],
      status: 'fail',
      actions: 2,
      notes: 1,
      warn: [/w\.yml:3: .*expired on 2027-01-14/],
    },
    {
      name: 'every failing host',
      waivers: [w({ hosts: ['d1', 'd2'] })],
      status: 'waived',
      actions: 0,
      notes: 0,
      warn: [],
    },
    {
      name: 'one host of two: still fails, that host not planned',
      waivers: [w({ hosts: ['d1'] })],
      status: 'fail',
      actions: 1,
      notes: 0,
      warn: [],
    },
    {
      name: 'by cluster name',
      waivers: [w({ clusters: ['prod-eu'] })],
      status: 'waived',
      actions: 0,
      notes: 0,
      warn: [],
    },
    {
      name: 'by api_url',
      waivers: [w({ clusters: ['https://10.0.0.1:9200'] })],
      status: 'waived',
      actions: 0,
      notes: 0,
      warn: [],
    },
    {
      name: 'another cluster',
      waivers: [w({ clusters: ['prod-us'] })],
      status: 'fail',
      actions: 2,
      notes: 0,
      warn: [],
    },
    {
      name: 'no loaded check',
      waivers: [w({ check: 'acme/hepa' })],
      status: 'fail',
      actions: 2,
      notes: 0,
      warn: [/acme\/hepa, which no loaded check has/],
    },
  ];
  for (const c of cases) {
    const r = applyWaivers(report([heap()]), c.waivers, opts);
    const k = r.report.clusters[0]!.checks[0]!;
    t.equal(k.status, c.status, `${c.name}: status`);
    t.equal(k.actions.length, c.actions, `${c.name}: planned actions`);
    t.equal(r.report.clusters[0]!.notes.length, c.notes, `${c.name}: notes`);
    t.equal(r.warnings.length, c.warn.length, `${c.name}: warnings`);
    c.warn.forEach((re, i) => t.match(r.warnings[i], re));
    t.equal(r.report.summary.checks_failed, c.status === 'fail' ? 1 : 0, `${c.name}: summary`);
    if (c.status === 'waived')
      t.same(k.waiver, { reason: 'OPS-123', ...(c.waivers[0]!.expires ? { expires: c.waivers[0]!.expires } : {}) });
  }
});

t.test('a waived check keeps its findings, as notes that say why', async (t) => {
  const k = applyWaivers(report([heap()]), [w()], opts).report.clusters[0]!.checks[0]!;
  t.same(
    k.findings.map((f) => [f.kind, f.message]),
    [
      ['note', 'waived (OPS-123): Xms 1g, Xmx 2g'],
      ['note', 'waived (OPS-123): Xms 1g, Xmx 4g'],
    ],
  );
});

t.test('only failures are waived: a check that errs or passes keeps its status', async (t) => {
  for (const status of ['pass', 'error', 'skip'] as const) {
    const k = applyWaivers(report([check('acme/heap', { status })]), [w()], opts).report.clusters[0]!.checks[0]!;
    t.equal(k.status, status);
  }
});

t.test('a restart another check owes is kept when the check that carried it is waived', async (t) => {
  const earlier = check('master-plugins', {
    order: 4,
    actions: [setYaml('d1')],
    findings: [
      { host: 'd1', message: 'a plugin' },
      {
        host: 'd1',
        kind: 'note',
        message: 'restart planned by acme/heap',
        evidence: { planned_by: 'acme/heap', command: 'systemctl restart opensearch' },
      },
    ],
  });
  const later = check('acme/heap', {
    findings: [{ host: 'd1', message: 'heap' }],
    actions: [setYaml('d1'), restart('d1')],
  });
  const out = applyWaivers(report([earlier, later]), [w()], opts).report.clusters[0]!.checks;
  t.equal(out[1]!.status, 'waived');
  t.same(out[1]!.actions, []);
  t.same(
    out[0]!.actions.map((a) => a.type),
    ['set-yaml', 'restart-service'],
    "the earlier check's edit is still restarted",
  );
});

t.test('--severity: only checks at or above the level count toward exit 1 and 3', async (t) => {
  const r = (sev: CheckResult['severity'], status: CheckResult['status']) =>
    report([check('base-limit-document', { status: 'pass', order: 1 }), check('acme/x', { severity: sev, status })]);
  const cases: Array<[CheckResult['severity'], CheckResult['status'], Parameters<typeof counts>[1], number]> = [
    ['low', 'fail', undefined, 1],
    ['low', 'fail', 'high', 0],
    ['high', 'fail', 'high', 1],
    ['critical', 'fail', 'critical', 1],
    [undefined, 'fail', 'critical', 1], // the vendor's five are critical
    ['medium', 'error', 'high', 0],
    ['medium', 'error', 'medium', 3],
    ['info', 'fail', 'info', 1],
    ['high', 'waived', undefined, 0],
  ];
  for (const [sev, status, level, code] of cases)
    t.equal(
      auditOutcome(r(sev, status), (k) => counts(k, level)).code,
      code,
      `${sev} ${status} at --severity ${level}`,
    );
});
