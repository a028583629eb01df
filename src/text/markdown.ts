/**
 * Markdown that shows any string as written and never as markup (CommonMark's rules): code spans and fences longer
 * than any backtick run inside, text outside code with every character that could open markup escaped.
 */
import { ENTITIES } from './html.ts';

const longestRun = (s: string, ch: string): number =>
  Math.max(0, ...(s.match(ch === '`' ? /`+/g : /~+/g) ?? []).map((m) => m.length));

// a code span is one line: a line end inside could start a heading, a list or a fence in the surrounding block
const oneLine = (s: string): string => s.replace(/\r\n?|\n/g, '\\n');

/** An inline code span: delimited by one backtick more than the longest run inside, padded where CommonMark strips. */
export function codeSpan(s: string): string {
  const body = oneLine(s);
  const tick = '`'.repeat(longestRun(body, '`') + 1);
  const pad = body.startsWith('`') || body.endsWith('`') || (body.startsWith(' ') && body.endsWith(' '));
  return pad ? `${tick} ${body} ${tick}` : `${tick}${body}${tick}`;
}

/** A fenced block: the fence longer than any backtick run inside, so no line of the body can close it. */
export function fence(body: string, lang = ''): string {
  const f = '`'.repeat(Math.max(3, longestRun(body, '`') + 1));
  return `${f}${lang}\n${body.replace(/\n$/, '')}\n${f}`;
}

// every ASCII punctuation character that can open or close inline markup (emphasis, links, images, code, tables,
// strikethrough, autolinks, raw HTML, entities); CommonMark allows a backslash before any of them
const INLINE = /[\\`*_[\]!|~<>&]/g;
// `_` between letters or digits opens no emphasis (node_with_sme stays readable)
const WORD = /^[A-Za-z0-9]$/;

/**
 * Text outside code, on one line: markup characters escaped, `<`, `>` and `&` as entities, and a first character
 * that could open a block (`#`, `-`, `+`, `=`, a digit, a space) written as a character reference.
 */
export function mdText(s: string): string {
  const line = s.replace(/\r\n?|\n/g, ' ');
  const esc = line.replace(INLINE, (c, i: number) =>
    c === '_' && WORD.test(line[i - 1] ?? '') && WORD.test(line[i + 1] ?? '')
      ? c
      : c === '<' || c === '>' || c === '&'
        ? ENTITIES[c]!
        : `\\${c}`,
  );
  return /^[^A-Za-z\u0080-\uffff&\\]/.test(esc) ? `&#${esc.codePointAt(0)};${esc.slice(1)}` : esc;
}
