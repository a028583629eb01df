/** Splices that turn a flow or block sequence into a new list of strings, keeping kept items' text. */
import { isScalar, type Node, type YAMLSeq } from 'yaml';
import { styleOf } from './parse.ts';
import { scalarText, lineStart, lineEnd, eolOf, type Splice } from './format.ts';
import type { YamlStyle } from './types.ts';

function itemValue(n: unknown): unknown {
  return isScalar(n) ? n.value : (n as Node | null)?.toJSON?.();
}

/** New items are written like the first existing one (quoted lists stay quoted). */
function refStyle(seq: YAMLSeq): YamlStyle {
  const s = styleOf((seq.items[0] as Node | undefined) ?? null);
  return s === 'single' || s === 'double' ? s : 'plain';
}

/** Old item source text for values that were already there, in the new order. */
function itemTexts(text: string, seq: YAMLSeq, values: string[]): string[] {
  const unused = seq.items.map((n) => n as Node);
  const style = refStyle(seq);
  return values.map((v) => {
    const i = unused.findIndex((n) => n && itemValue(n) === v && n.range);
    if (i === -1) return scalarText(v, style);
    const [s, e] = unused[i].range!;
    unused.splice(i, 1);
    return text.slice(s, e);
  });
}

function flowSplices(text: string, seq: YAMLSeq, values: string[]): Splice[] {
  const [start, end] = seq.range!;
  const pad = text[start + 1] === ' ' ? ' ' : '';
  return [{ start, end, text: `[${pad}${itemTexts(text, seq, values).join(', ')}${pad}]` }];
}

/** A block item owns its line when only `- ` precedes it and only space or a comment follows it. */
function ownsLine(text: string, n: Node): boolean {
  const [s, e] = n.range!;
  const before = text.slice(lineStart(text, s), s);
  const after = text.slice(e, lineEnd(text, Math.max(e - 1, s)));
  return /^[ \t]*-[ \t]+$/.test(before) && /^[ \t]*(#.*)?\r?\n?$/.test(after) && !text.slice(s, e).includes('\n');
}

/** Delete a line; the last line of a file without a final newline takes the newline before it instead. */
function drop(splices: Splice[], text: string, start: number, end: number): void {
  if (end === text.length && !text.endsWith('\n') && start > 0) start -= text[start - 2] === '\r' ? 2 : 1;
  const prev = splices[splices.length - 1];
  if (prev && prev.text === '' && prev.end >= start) prev.end = end;
  else splices.push({ start, end, text: '' });
}

function blockSplices(text: string, seq: YAMLSeq, values: string[]): Splice[] {
  const items = seq.items as Node[];
  const eol = eolOf(text);
  const first = items[0];
  const last = items[items.length - 1];
  const indent = text.slice(lineStart(text, first.range![0]), first.range![0]).replace(/-[ \t]+$/, '');
  const line = (t: string) => `${indent}- ${t}${eol}`;
  const fromLine = lineStart(text, first.range![0]);
  const toLine = lineEnd(text, last.range![1] - 1);
  if (!items.every((n) => n && n.range && ownsLine(text, n))) {
    return [{ start: fromLine, end: toLine, text: itemTexts(text, seq, values).map(line).join('') }];
  }
  const splices: Splice[] = [];
  let j = 0;
  // Kept items keep their lines (and comments); dropped items lose exactly their own line.
  for (const n of items) {
    if (j < values.length && itemValue(n) === values[j]) j++;
    else drop(splices, text, lineStart(text, n.range![0]), lineEnd(text, n.range![1] - 1));
  }
  if (j < values.length) {
    const style = refStyle(seq);
    const added = values
      .slice(j)
      .map((v) => line(scalarText(v, style)))
      .join('');
    // At a last line without a newline, the new lines go before that missing newline, not after it.
    const atEof = toLine === text.length && !text.endsWith('\n');
    splices.push({ start: toLine, end: toLine, text: atEof ? eol + added.slice(0, -eol.length) : added });
  }
  return splices;
}

export function spliceList(text: string, seq: YAMLSeq, values: string[]): Splice[] {
  return seq.flow ? flowSplices(text, seq, values) : blockSplices(text, seq, values);
}
