/** JUnit XML for CI: one testcase per check per cluster, plus the cluster's own actions and any refusal. */
import type { Action, CheckResult, CheckStatus, ClusterReport, Report } from '../model/index.ts';
import { xmlEscape } from '../text/index.ts';
import { actionBody, actionLine, checkAbout, findingLine, waiverLine } from './describe.ts';

const attr = (o: Record<string, string | number>): string =>
  Object.entries(o)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');

/** One testcase, whatever it stands for: a check, a cluster action, a refusal. */
interface Case {
  name: string;
  status: Exclude<CheckStatus, 'waived'>;
  message: string;
  detail: string;
  /** Printed even when it passes: what a cluster action is. */
  out?: string;
}

function actionLines(actions: Action[]): string[] {
  return actions.flatMap((a, i) => {
    const body = actionBody(a);
    return [`${i + 1}. ${actionLine(a)}`, ...(a.diff ? [a.diff.replace(/\n$/, '')] : []), ...(body ? [body] : [])];
  });
}

// JUnit has no waived: an accepted failure is reported as skipped, with the waiver's reason
const checkCase = (result: CheckResult): Case => ({
  name: `${result.order} ${result.id}`,
  status: result.status === 'waived' ? 'skip' : result.status,
  message: result.waiver ? waiverLine(result.waiver) : result.reason,
  detail: [...checkAbout(result), ...result.findings.map((f) => findingLine(f)), ...actionLines(result.actions)].join(
    '\n',
  ),
});

// A planned cluster action passes (the audit names it); fix reports what became of it.
const ACTION_STATUS: Record<Action['status'], Case['status']> = {
  planned: 'pass',
  done: 'pass',
  failed: 'fail',
  skipped: 'skip',
};

function clusterCases(clusterReport: ClusterReport): Case[] {
  const cases = (clusterReport.actions ?? []).map((a): Case => ({
    name: `cluster ${a.type}`,
    status: ACTION_STATUS[a.status],
    message: a.error ?? a.reason ?? actionLine(a),
    detail: actionLine(a),
    out: actionLine(a),
  }));
  if (clusterReport.refused?.length)
    cases.push({
      name: 'fix refused',
      status: 'fail',
      message: clusterReport.refused[0]!,
      detail: clusterReport.refused.join('\n'),
    });
  return [...cases, ...clusterReport.checks.map(checkCase)];
}

function testcase(classname: string, k: Case): string {
  const head = `    <testcase${attr({ classname, name: k.name })}`;
  if (k.status === 'pass')
    return k.out ? `${head}>\n      <system-out>${xmlEscape(k.out)}</system-out>\n    </testcase>` : `${head}/>`;
  if (k.status === 'skip') return `${head}>\n      <skipped${attr({ message: k.message })}/>\n    </testcase>`;
  const tag = k.status === 'fail' ? 'failure' : 'error';
  return `${head}>\n      <${tag}${attr({ message: k.message, type: k.status })}>${xmlEscape(k.detail)}</${tag}>\n    </testcase>`;
}

const counts = (cases: Case[]) => ({
  tests: cases.length,
  failures: cases.filter((k) => k.status === 'fail').length,
  errors: cases.filter((k) => k.status === 'error').length,
  skipped: cases.filter((k) => k.status === 'skip').length,
});

export function renderJunit(report: Report): string {
  const suites = report.clusters.map((c) => ({ c, cases: clusterCases(c) }));
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attr({ name: `smdoctor ${report.mode}`, ...counts(suites.flatMap((s) => s.cases)) })}>`,
  ];
  for (const { c, cases } of suites) {
    const name = c.name || c.api_url;
    out.push(`  <testsuite${attr({ name, ...counts(cases) })}>`);
    out.push(`    <properties><property${attr({ name: 'api_url', value: c.api_url })}/></properties>`);
    for (const k of cases) out.push(testcase(name, k));
    if (c.notes.length)
      out.push(`    <system-out>${xmlEscape(c.notes.map((n) => findingLine(n)).join('\n'))}</system-out>`);
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
