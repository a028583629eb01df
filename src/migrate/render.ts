/** Human renderings of an explanation: text (caret lines, or colour on a terminal) and markdown. */

import pc from 'picocolors';
import { escapeControls as esc, fence } from '../text/index.ts';
import type { Explanation, FieldObject, MacroNode } from '../sml/index.ts';

export interface ExplainRenderOptions {
  /** Colour and underline instead of caret lines. */
  tty: boolean;
}

/** 1-based line and column of an offset. */
export function lineCol(text: string, pos: number): { line: number; col: number; lineStart: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < pos; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: pos - lineStart + 1, lineStart };
}

/**
 * The replacement with its inserted `text ` marked: caret lines under each line, or underlined on a terminal. Stored
 * queries may hold control characters: each piece is escaped, and the carets count the escaped widths.
 */
export function markInsertions(
  replacement: string,
  insertions: number[],
  o: ExplainRenderOptions,
  indent = '  ',
): string[] {
  const at = insertions.map((p, k) => p + 5 * k); // offsets in the replacement
  const out: string[] = [];
  let lineStart = 0;
  for (const line of replacement.split('\n')) {
    const mine = at.filter((p) => p >= lineStart && p < lineStart + line.length);
    if (o.tty) {
      let s = '';
      let from = 0;
      for (const p of mine) {
        s += esc(line.slice(from, p - lineStart)) + pc.underline(pc.green('text'));
        from = p - lineStart + 4;
      }
      out.push(indent + s + esc(line.slice(from)));
    } else {
      out.push(indent + esc(line));
      if (mine.length) {
        let carets = '';
        for (const p of mine) carets = carets.padEnd(esc(line.slice(0, p - lineStart)).length, ' ') + '^^^^^';
        out.push(indent + carets.replace(/\s+$/, ''));
      }
    }
    lineStart += line.length + 1;
  }
  return out;
}

function fieldLine(f: FieldObject, o: ExplainRenderOptions): string {
  const status = o.tty
    ? f.status === 'text_op_added'
      ? pc.green(f.status)
      : f.status === 'manual_review'
        ? pc.yellow(f.status)
        : pc.dim(f.status)
    : f.status;
  return `${esc(f.name)}  ${esc(f.type || '-')}  ${status}  ${esc(f.message)}`;
}

function macroLines(n: MacroNode, o: ExplainRenderOptions, depth: number): string[] {
  const pad = '  '.repeat(depth);
  const lines = [`${pad}${esc(n.original)} at ${n.expansion_position} → ${esc(JSON.stringify(n.expansion))}`];
  for (const f of n.search_fields) lines.push(`${pad}  field ${fieldLine(f, o)}`);
  for (const c of n.macros) lines.push(...macroLines(c, o, depth + 1));
  return lines;
}

export function renderExplainText(explanation: Explanation, insertions: number[], o: ExplainRenderOptions): string {
  const multi = explanation.original.includes('\n');
  const lines = ['original:', ...explanation.original.split('\n').map((l) => `  ${esc(l)}`)];
  if (explanation.expansion !== explanation.original)
    lines.push('expansion:', ...explanation.expansion.split('\n').map((l) => `  ${esc(l)}`));
  lines.push(explanation.replacement === explanation.original ? 'replacement: (unchanged)' : 'replacement:');
  if (explanation.replacement !== explanation.original)
    lines.push(...markInsertions(explanation.replacement, insertions, o));
  if (explanation.search_fields.length)
    lines.push('fields:', ...explanation.search_fields.map((f) => `  ${fieldLine(f, o)}`));
  if (explanation.macros.length) lines.push('macros:', ...explanation.macros.flatMap((n) => macroLines(n, o, 1)));
  if (explanation.errors.length) {
    lines.push('errors:');
    for (const err of explanation.errors) {
      const lc = lineCol(explanation.original, err.position);
      const where = multi ? `line ${lc.line}, column ${lc.col}` : `at ${err.position}`;
      const end = explanation.original.indexOf('\n', lc.lineStart);
      const before = esc(explanation.original.slice(lc.lineStart, err.position));
      lines.push(`  ${err.code} ${where}: ${esc(err.message)}`);
      lines.push(`    ${esc(explanation.original.slice(lc.lineStart, end < 0 ? undefined : end))}`);
      lines.push(`    ${' '.repeat(before.length)}${o.tty ? pc.red('^') : '^'}`);
    }
  }
  lines.push(summary(explanation));
  return `${lines.join('\n')}\n`;
}

export function summary(e: Explanation): string {
  const added = e.search_fields.filter((f) => f.status === 'text_op_added').length;
  const review = e.search_fields.filter((f) => f.status === 'manual_review').length;
  if (!added && !review && !e.errors.length) return 'result: nothing to migrate';
  return `result: ${added} text operator(s) added, ${review} field(s) to review by hand, ${e.errors.length} error(s)`;
}

/** Markdown: the text rendering in code blocks, without colour. */
export function renderExplainMarkdown(e: Explanation, insertions: number[]): string {
  const text = renderExplainText(e, insertions, { tty: false });
  return `## migrate explain\n\n${fence(text, 'text')}\n`;
}
