/** For a terminal: what does not pass first, with its why, findings and the numbered plan; each passing check on one
 * line; notes; a summary per severity; every line within the terminal's width when it is known. */
import pc from 'picocolors';
import type {
  Action,
  CheckResult,
  CheckStatus,
  ClusterReport,
  Report,
  ReportFolder,
  ReportLayout,
} from '../model/index.ts';
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
import { clipTo, wrapTo } from './fit.ts';
import { severityLines } from './severity-text.ts';
import { lookFirst } from './tally.ts';

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

export interface TextOptions {
  color: boolean;
  /** The terminal's columns: every line fits; none given, lines are as long as their text. */
  width?: number | undefined;
  /** -v: passing checks with their why, docs and findings too. */
  verbose?: boolean;
}

const WORD: Record<CheckStatus, (c: Colors) => string> = {
  pass: (c) => c.green('PASS'),
  fail: (c) => c.red('FAIL'),
  error: (c) => c.magenta('ERROR'),
  skip: (c) => c.dim('SKIP'),
  waived: (c) => c.yellow('WAIVED'),
};

const paintDiffLine = (l: string, c: Colors): string => {
  const t = l.trimStart();
  if (t.startsWith('+++') || t.startsWith('---')) return c.bold(l);
  if (t.startsWith('+')) return c.green(l);
  if (t.startsWith('-')) return c.red(l);
  if (t.startsWith('@@')) return c.cyan(l);
  return l;
};

export function renderText(report: Report, opts: TextOptions): string {
  const c = pc.createColors(opts.color);
  const { width } = opts;
  const out: string[] = [];
  // plain text is cut or wrapped first, then painted: a colour never spans a cut
  const wrap = (text: string, first: string, rest: string, paint: (l: string) => string = (l) => l): void =>
    void out.push(...wrapTo(text, width, first, rest).map(paint));
  const block = (text: string, pad: string, paint: (l: string) => string = (l) => l): void => {
    for (const l of text.replace(/\n$/, '').split('\n')) wrap(l, pad, `${pad}  `, paint);
  };
  /** `WORD rest` on one line, the word painted by status; a status from elsewhere stays a plain word. */
  const statusLine = (status: CheckStatus, text: string, pad = ''): string => {
    const word = WORD[status] ? WORD[status](pc.createColors(false)) : String(status);
    const line = clipTo(`${pad}${word} ${text}`, width);
    return WORD[status] ? `${pad}${WORD[status](c)}${line.slice(pad.length + word.length)}` : line;
  };
  let step = 0;
  const actionLines = (a: Action): void => {
    const mark =
      { planned: '', done: c.green('✓ '), failed: c.red('✗ '), skipped: c.dim('– ') }[a.status] ??
      `${STATUS_MARK[a.status]} `;
    const plainMark = a.status === 'planned' ? '' : `${STATUS_MARK[a.status] ?? ''} `;
    const n = `${++step}.`;
    const lines = wrapTo(actionLine(a), width, `     ${plainMark}${n} `, '          ');
    out.push(`     ${mark}${c.bold(n)}${lines[0]!.slice(5 + plainMark.length + n.length)}`, ...lines.slice(1));
    if (a.diff) block(a.diff, '          ', (l) => paintDiffLine(l, c));
    const body = actionBody(a);
    if (body) block(body, '          ');
    if (a.backup) wrap(`backup: ${a.backup}`, '          ', '            ');
    if (a.output) block(a.output, '          ');
  };
  const detailed = (k: CheckResult): void => {
    // a reason or finding with a line break (a value read by a pack check) must not start a line of its own
    const lines = wrapTo(`${k.order} ${k.id} — ${oneLine(k.reason)}`, width, `${k.status} `, '     ');
    const head = lines[0]!.slice(k.status.length + 1);
    out.push(`${WORD[k.status] ? WORD[k.status](c) : k.status} ${head}`, ...lines.slice(1));
    for (const l of checkAbout(k)) wrap(l, '     ', '       ', (x) => c.dim(x));
    for (const f of k.findings) wrap(oneLine(findingLine(f)), '     - ', '       ');
    for (const a of k.actions) actionLines(a);
  };
  for (const cl of report.clusters) clusterBlock(cl);
  const before = report.clusters.some((cl) => cl.after) ? ' (before the fix)' : '';
  for (const l of severityLines(report.clusters)) wrap(l.text, l.pad, `${l.pad}    `, l.head ? c.bold : undefined);
  wrap(`summary${before}: ${summaryLine(report)}`, '', '  ', c.bold);
  const fixed = fixLine(report);
  if (fixed) wrap(`fix: ${fixed}`, '', '  ', c.bold);
  return `${out.join('\n')}\n`;

  function clusterBlock(cl: ClusterReport): void {
    out.push(c.bold(clipTo(`== cluster ${clusterLabel(cl)} ==`, width)));
    for (const n of cl.nodes) {
      out.push(
        c.dim(
          clipTo(
            `   node ${n.name ?? '-'} ${n.address} [${n.roles.join(',') || '-'}] host ${n.host ?? '(not in inventory)'}${n.reachable ? '' : ' unreachable'}`,
            width,
          ),
        ),
      );
      for (const l of layoutLines(n.layout)) out.push(c.dim(clipTo(`     ${oneLine(l)}`, width)));
    }
    step = 0;
    for (const a of cl.actions ?? []) {
      const n = `${++step}.`;
      const lines = wrapTo(actionLine(a), width, `CLUSTER ${n} `, '          ');
      out.push(`${c.yellow('CLUSTER')} ${c.bold(n)}${lines[0]!.slice(8 + n.length)}`, ...lines.slice(1));
    }
    for (const why of cl.refused ?? []) wrap(`REFUSED ${why}`, '', '        ', c.red);
    const { look, rest } = lookFirst(cl.checks);
    for (const k of look) detailed(k);
    for (const k of rest)
      // a passing or skipped check is one line: its why and docs are for what does not pass; a planned action shows
      if (opts.verbose || k.actions.length) detailed(k);
      else out.push(statusLine(k.status, `${k.order} ${k.id} — ${oneLine(k.reason)}`));
    if (cl.after) {
      out.push(c.bold('after the fix:'));
      for (const k of cl.after.checks) out.push(statusLine(k.status, `${k.id} — ${oneLine(k.reason)}`, '   '));
    }
    if (cl.notes.length) {
      out.push(c.yellow('notes:'));
      for (const n of cl.notes) wrap(oneLine(findingLine(n)), '   - ', '     ');
    }
    out.push('');
  }
}
