/** For a terminal: one line per check, findings and the numbered plan under it, notes, a summary. */
import pc from 'picocolors';
import type { CheckStatus, Report, ReportFolder, ReportLayout } from '../model/index.ts';
import {
  STATUS_MARK,
  actionBody,
  actionLine,
  clusterLabel,
  findingLine,
  fixLine,
  summaryLine,
  checkAbout,
  oneLine,
} from './describe.ts';

type Colors = ReturnType<typeof pc.createColors>;

const ARCHIVE = "the archive's layout";

/** Where the node's files were read, and why; the web application's only where it is not the archive's. */
function layoutLines(l: ReportLayout | undefined): string[] {
  if (!l) return [];
  const f = (x: ReportFolder) => `${x.path} (${x.why})`;
  return [
    `config ${f(l.engine_config)}; home ${f(l.engine_home)}`,
    ...(l.web_config.why !== ARCHIVE || l.web_home.why !== ARCHIVE
      ? [`web config ${f(l.web_config)}; web home ${f(l.web_home)}`]
      : []),
    ...(l.refused ?? []).map((r) => `not used: ${r}`),
  ];
}

const indent = (s: string, pad: string): string =>
  s
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => `${pad}${l}`)
    .join('\n');

function paintDiff(diff: string, c: Colors): string {
  return diff
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => {
      if (l.startsWith('+++') || l.startsWith('---')) return c.bold(l);
      if (l.startsWith('+')) return c.green(l);
      if (l.startsWith('-')) return c.red(l);
      if (l.startsWith('@@')) return c.cyan(l);
      return l;
    })
    .join('\n');
}

export function renderText(report: Report, opts: { color: boolean }): string {
  const c = pc.createColors(opts.color);
  const word: Record<CheckStatus, string> = {
    pass: c.green('PASS'),
    fail: c.red('FAIL'),
    error: c.magenta('ERROR'),
    skip: c.dim('SKIP'),
    waived: c.yellow('WAIVED'),
  };
  const out: string[] = [];
  for (const cl of report.clusters) {
    out.push(c.bold(`== cluster ${clusterLabel(cl)} ==`));
    for (const n of cl.nodes) {
      out.push(
        c.dim(
          `   node ${n.name ?? '-'} ${n.address} [${n.roles.join(',') || '-'}] host ${n.host ?? '(not in inventory)'}${n.reachable ? '' : ' unreachable'}`,
        ),
      );
      for (const l of layoutLines(n.layout)) out.push(c.dim(`     ${oneLine(l)}`));
    }
    let step = 0;
    for (const a of cl.actions ?? []) out.push(`${c.yellow('CLUSTER')} ${c.bold(`${++step}.`)} ${actionLine(a)}`);
    for (const why of cl.refused ?? []) out.push(c.red(`REFUSED ${why}`));
    for (const k of cl.checks) {
      // a reason or finding with a line break (a value read by a pack check) must not start a line of its own
      out.push(`${word[k.status]} ${k.order} ${k.id} — ${oneLine(k.reason)}`);
      for (const l of checkAbout(k)) out.push(`     ${c.dim(l)}`);
      for (const f of k.findings) out.push(`     - ${oneLine(findingLine(f))}`);
      for (const a of k.actions) {
        const mark =
          { planned: '', done: c.green('✓ '), failed: c.red('✗ '), skipped: c.dim('– ') }[a.status] ??
          `${STATUS_MARK[a.status]} `;
        out.push(`     ${mark}${c.bold(`${++step}.`)} ${actionLine(a)}`);
        if (a.diff) out.push(indent(paintDiff(a.diff, c), '          '));
        const body = actionBody(a);
        if (body) out.push(indent(body, '          '));
        if (a.backup) out.push(`          backup: ${a.backup}`);
        if (a.output) out.push(indent(a.output, '          '));
      }
    }
    if (cl.after) {
      out.push(c.bold('after the fix:'));
      for (const k of cl.after.checks) out.push(`   ${word[k.status]} ${k.id} — ${k.reason}`);
    }
    if (cl.notes.length) {
      out.push(c.yellow('notes:'));
      for (const n of cl.notes) out.push(`   - ${findingLine(n)}`);
    }
    out.push('');
  }
  const before = report.clusters.some((cl) => cl.after) ? ' (before the fix)' : '';
  out.push(c.bold(`summary${before}: ${summaryLine(report)}`));
  const fixed = fixLine(report);
  if (fixed) out.push(c.bold(`fix: ${fixed}`));
  return `${out.join('\n')}\n`;
}
