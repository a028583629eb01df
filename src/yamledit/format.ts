/** Scalar text in a chosen quoting style, and text splicing helpers. */
import { parseDocument } from 'yaml';
import type { YamlStyle } from './types.ts';
import { breakOrControlIn, yamlDoubleQuoted } from '../base/yaml11.ts';

/** A plain scalar is used only when it reads back as the same string. */
function plainSafe(s: string): boolean {
  if (s === '' || breakOrControlIn(s)) return false;
  const d = parseDocument(`k: ${s}\n`);
  return d.errors.length === 0 && d.get('k') === s;
}

/**
 * Text of `value` written in `style`. A boolean or number keeps quotes when the original was quoted
 * (a quoted "true" becomes a quoted "false": the engine reads both the same, and the file keeps its look).
 */
export function scalarText(value: string | number | boolean, style: YamlStyle): string {
  const s = String(value);
  // a line break or control cannot be written inside single quotes or plain: only an escape keeps it one line
  if (style === 'single' && !breakOrControlIn(s)) return `'${s.replace(/'/g, "''")}'`;
  if (style === 'double' || style === 'single') return yamlDoubleQuoted(s);
  if (typeof value !== 'string') return s;
  return plainSafe(s) ? s : yamlDoubleQuoted(s);
}

export interface Splice {
  start: number;
  end: number;
  text: string;
}

/** Apply non-overlapping splices, given in any order. */
export function applySplices(text: string, splices: Splice[]): string {
  let out = text;
  for (const s of [...splices].sort((a, b) => b.start - a.start))
    out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset just after the newline ending the line that holds `offset` (or the text's end). */
export function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl === -1 ? text.length : nl + 1;
}

export function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}
