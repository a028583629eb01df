/** To paste into a ticket: a table of checks, findings, the plan with fenced diffs. */
import type { Action, Report } from '../model/index.ts';
import {
  STATUS_MARK,
  actionBody,
  checkAbout,
  actionLine,
  clusterLabel,
  findingLine,
  fixLine,
  summaryLine,
} from './describe.ts';
import { severityLines } from './severity-text.ts';
import { lookFirst } from './tally.ts';
import { codeSpan as code, fence, mdText as cell } from '../text/index.ts';

const mark = (action: Action): string => (STATUS_MARK[action.status] ? `${STATUS_MARK[action.status]} ` : '');

export function renderMarkdown(report: Report, opts: { verbose?: boolean } = {}): string {
  const fixed = fixLine(report);
  const out: string[] = [
    `# smdoctor ${report.mode} — ${summaryLine(report)}`,
    '',
    ...(fixed ? [`Fix: ${fixed}.`, ''] : []),
  ];
  for (const c of report.clusters) {
    out.push(`## Cluster ${cell(clusterLabel(c))}`, '');
    if (c.refused?.length) {
      out.push('### Refused — nothing (more) was changed in this cluster', '');
      for (const why of c.refused) out.push(`- ${cell(why)}`);
      out.push('');
    }
    if (c.actions?.length) {
      out.push('### Cluster actions', '');
      c.actions.forEach((a, i) => out.push(`${i + 1}. ${mark(a)}${code(actionLine(a))}`));
      out.push('');
    }
    // what does not pass first; a passing check is its row, its why and docs only with -v
    const { look, rest } = lookFirst(c.checks);
    out.push('| # | check | status | reason |', '|---|---|---|---|');
    for (const k of [...look, ...rest])
      out.push(`| ${k.order} | ${code(k.id)} | **${k.status.toUpperCase()}** | ${cell(k.reason)} |`);
    out.push('');
    const about = (opts.verbose ? [...look, ...rest] : look).filter((k) => checkAbout(k).length);
    if (about.length) {
      out.push('### Pack checks and waivers', '');
      for (const k of about) out.push(`- ${code(k.id)} — ${checkAbout(k).map(cell).join(' · ')}`);
      out.push('');
    }
    const withFindings = c.checks.filter((k) => k.findings.length);
    if (withFindings.length) {
      out.push('### Findings', '');
      for (const k of withFindings) for (const f of k.findings) out.push(`- ${code(k.id)} — ${cell(findingLine(f))}`);
      out.push('');
    }
    const actions = [...look, ...rest].flatMap((k) => k.actions);
    if (actions.length) {
      out.push('### Plan', '');
      actions.forEach((a, i) => {
        out.push(`${i + 1}. ${mark(a)}${code(actionLine(a))}${a.backup ? ` — backup ${code(a.backup)}` : ''}`);
        if (a.diff) out.push('', indentBlock(fence(a.diff, 'diff')), '');
        const body = actionBody(a);
        if (body) out.push('', indentBlock(fence(body, 'json')), '');
      });
      out.push('');
    }
    if (c.after) {
      out.push('### After the fix', '', '| check | status | reason |', '|---|---|---|');
      for (const k of c.after.checks) out.push(`| ${code(k.id)} | **${k.status.toUpperCase()}** | ${cell(k.reason)} |`);
      out.push('');
    }
    if (c.notes.length) {
      out.push('### Notes', '');
      for (const n of c.notes) out.push(`- ${cell(findingLine(n))}`);
      out.push('');
    }
  }
  const severity = severityLines(report.clusters);
  if (severity.length) {
    out.push(`## B${severity[0]!.text.slice(1, -1)}`, '');
    for (const l of severity.slice(1)) out.push(`${' '.repeat(l.pad.length - 2)}- ${cell(l.text)}`);
    out.push('');
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n')}\n`;
}

// inside a numbered list item, blocks are indented to stay part of the item
const indentBlock = (s: string): string =>
  s
    .split('\n')
    .map((l) => `   ${l}`)
    .join('\n');
