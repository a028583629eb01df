/** The replacement lists: the service's replacement objects (JSON) and a readable list (text). */

import pc from 'picocolors';
import { escapeControls as esc } from '../../text/index.ts';
import { markInsertions } from '../render.ts';
import type { Entry } from './analyse.ts';
import type { StoredWarning } from './extract.ts';

export type ApplyStatus = 'applied' | 'conflict' | 'failed' | 'skipped' | 'declined';

export interface ApplyResult {
  status: ApplyStatus;
  message?: string;
}

/** The service's fields first; a query for a person gets replacement = original (a blind rewrite is a no-op) plus our fields. */
export function replacementObject(entry: Entry, result?: ApplyResult): Record<string, unknown> {
  const { q, explanation: x } = entry;
  const query = { original: x.original, replacement: entry.manual ? x.original : x.replacement };
  const head =
    q.kind === 'jobs'
      ? { job_id: q.ownerId, index: q.doc.index, doc_id: q.doc.id, query }
      : { pathInJson: q.path, dashboard_id: q.ownerId, index: q.doc.index, doc_id: q.doc.id, query };
  const extra: Record<string, unknown> = {};
  if (entry.manual) {
    extra.manual_review = true;
    extra.fields = x.search_fields.filter((f) => f.status === 'manual_review').map((f) => f.name);
    extra.errors = x.errors;
    if (x.replacement !== x.original) extra.suggested_replacement = x.replacement;
  }
  if (result) extra.apply = result;
  return { ...head, ...extra };
}

export function renderStoredJson(entries: readonly Entry[], results?: ReadonlyMap<Entry, ApplyResult>): string {
  return JSON.stringify(
    entries.map((e) => replacementObject(e, results?.get(e))),
    null,
    2,
  );
}

// a stored query's text, escaped: anyone who can save a job must not reach the terminal of who reads the list
const indent = (s: string, pad = '    ') => s.split('\n').map((l) => pad + esc(l));

export function renderStoredText(
  kind: 'jobs' | 'dashboards',
  entries: readonly Entry[],
  warnings: readonly StoredWarning[],
  o: { tty: boolean; results?: ReadonlyMap<Entry, ApplyResult> },
): string {
  const lines: string[] = [];
  const flag = (s: string) => (o.tty ? pc.yellow(s) : s);
  for (const e of entries) {
    const { q, explanation: x } = e;
    const who = q.kind === 'jobs' ? `job ${q.ownerId}` : `dashboard ${q.ownerId} ${q.path}`;
    const r = o.results?.get(e);
    lines.push(
      `${esc(`${who}  (${q.doc.index}/${q.doc.id})`)}${e.manual ? `  ${flag('[manual review]')}` : ''}${r ? `  ${r.status}${r.message ? `: ${esc(r.message)}` : ''}` : ''}`,
    );
    lines.push('  original:', ...indent(x.original));
    if (e.manual) {
      const fields = x.search_fields.filter((f) => f.status === 'manual_review').map((f) => f.name);
      if (fields.length) lines.push(`  fields from macros, rewrite by hand: ${esc(fields.join(', '))}`);
      for (const err of x.errors) lines.push(`  error ${err.code} at ${err.position}: ${esc(err.message)}`);
      if (x.replacement !== x.original)
        lines.push('  suggestion (not applied):', ...markInsertions(x.replacement, e.insertions, o, '    '));
    } else {
      lines.push('  replacement:', ...markInsertions(x.replacement, e.insertions, o, '    '));
    }
  }
  for (const w of warnings)
    lines.push(`warning: ${esc(`${w.index}/${w.doc_id}${w.path ? ` ${w.path}` : ''}: ${w.message}`)}`);
  const auto = entries.filter((e) => !e.manual).length;
  const manual = entries.length - auto;
  lines.push(
    entries.length || warnings.length
      ? `result: ${auto} ${kind === 'jobs' ? 'job' : 'panel'} quer${auto === 1 ? 'y' : 'ies'} to rewrite, ${manual} to review by hand, ${warnings.length} unreadable`
      : 'result: nothing to migrate',
  );
  return `${lines.join('\n')}\n`;
}
