/** JUnit XML for CI: one testcase per check per cluster. */
import type { CheckResult, ClusterReport, Report } from '../model/index.ts';
import { actionBody, actionLine, findingLine } from './describe.ts';

// characters XML 1.0 cannot carry at all are dropped
// eslint-disable-next-line no-control-regex -- the allowed control characters are the point
const INVALID = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlEscape(s: string): string {
  return s
    .replace(INVALID, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const attr = (o: Record<string, string | number>): string =>
  Object.entries(o)
    .map(([k, v]) => ` ${k}="${xmlEscape(String(v))}"`)
    .join('');

function detail(k: CheckResult): string {
  const lines = k.findings.map((f) => findingLine(f));
  k.actions.forEach((a, i) => {
    lines.push(`${i + 1}. ${actionLine(a)}`);
    if (a.diff) lines.push(a.diff.replace(/\n$/, ''));
    const body = actionBody(a);
    if (body) lines.push(body);
  });
  return lines.join('\n');
}

function testcase(c: ClusterReport, k: CheckResult): string {
  const head = `    <testcase${attr({ classname: c.name || c.api_url, name: `${k.order} ${k.id}` })}`;
  if (k.status === 'pass') return `${head}/>`;
  if (k.status === 'skip') return `${head}>\n      <skipped${attr({ message: k.reason })}/>\n    </testcase>`;
  const tag = k.status === 'fail' ? 'failure' : 'error';
  return `${head}>\n      <${tag}${attr({ message: k.reason, type: k.status })}>${xmlEscape(detail(k))}</${tag}>\n    </testcase>`;
}

const counts = (checks: CheckResult[]) => ({
  tests: checks.length,
  failures: checks.filter((k) => k.status === 'fail').length,
  errors: checks.filter((k) => k.status === 'error').length,
  skipped: checks.filter((k) => k.status === 'skip').length,
});

export function renderJunit(r: Report): string {
  const all = r.clusters.flatMap((c) => c.checks);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attr({ name: `smdoctor ${r.mode}`, ...counts(all) })}>`,
  ];
  for (const c of r.clusters) {
    out.push(`  <testsuite${attr({ name: c.name || c.api_url, ...counts(c.checks) })}>`);
    out.push(`    <properties><property${attr({ name: 'api_url', value: c.api_url })}/></properties>`);
    for (const k of c.checks) out.push(testcase(c, k));
    if (c.notes.length)
      out.push(`    <system-out>${xmlEscape(c.notes.map((n) => findingLine(n)).join('\n'))}</system-out>`);
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return `${out.join('\n')}\n`;
}
