/** Linear-time lexer of SML text (words, quoted strings, operators, pipes, macro calls). Offsets are UTF-16 indices into the lexed string. */

import { NO_ERRORS, type RawError } from './errors.ts';
import { grow, isStructural, K, KIND_NAMES, keywordOf, newToks, type TokenKind, type Toks } from './toks.ts';

export interface Token {
  kind: TokenKind;
  start: number;
  end: number;
  /** White space (or the start of the text) right before the token. */
  ws: boolean;
}

export interface LexResult {
  tokens: Token[];
  errors: RawError[];
}

export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0xfeff;
}

/** ASCII classes, so the hot loop reads a table instead of testing each character against a list. */
const [K_STRING, K_MACRO, K_OP, K_WORD] = [K.string, K.macro, K.op, K.word];
const kwOf = keywordOf;
const WORD = 0,
  SPACE = 1,
  QUOTE = 2,
  BACKQUOTE = 3,
  SINGLE = 4,
  OP = 5,
  BANG = 6;
const CLASS = new Uint8Array(128);
for (let c = 9; c <= 13; c++) CLASS[c] = SPACE;
CLASS[32] = SPACE;
CLASS[34] = QUOTE;
CLASS[96] = BACKQUOTE;
for (const c of '|()[],') CLASS[c.charCodeAt(0)] = SINGLE;
for (const c of '=<>') CLASS[c.charCodeAt(0)] = OP;
CLASS[33] = BANG;
const SINGLE_KIND = new Uint8Array(128);
SINGLE_KIND[124] = K.pipe;
SINGLE_KIND[40] = K.lparen;
SINGLE_KIND[41] = K.rparen;
SINGLE_KIND[91] = K.lbracket;
SINGLE_KIND[93] = K.rbracket;
SINGLE_KIND[44] = K.comma;

/** End offset of the quoted string opening at i, or -1 when it is never closed. */
export function stringEnd(s: string, i: number): number {
  // a backslash escapes the next character: a `"` closes the string when an even run of backslashes precedes it
  for (let j = i + 1; ;) {
    const q = s.indexOf('"', j);
    if (q < 0) return -1;
    let k = q - 1;
    while (k > i && s.charCodeAt(k) === 92) k--;
    if (((q - 1 - k) & 1) === 0) return q + 1;
    j = q + 1;
  }
}

/** End of the bare word starting at i: `!` only ends it when it starts `!=`. */
function wordEnd(s: string, i: number, n: number): number {
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c < 128) {
      const k = CLASS[c];
      if (k !== WORD && (k !== BANG || s.charCodeAt(i + 1) === 61)) return i;
    } else if (isSpace(c)) return i;
    i++;
  }
  return n;
}

/** Lexes `s` into `out` (reset first); returns the errors (NO_ERRORS when there are none). */
export function lexInto(s: string, out: Toks): readonly RawError[] {
  let errors: RawError[] | undefined;
  const n = s.length;
  // the buffer's arrays in locals (read again after a grow): the loop writes them for every token
  let cap = out.kind.length;
  let kinds = out.kind;
  let starts = out.start;
  let ends = out.end;
  let wss = out.ws;
  let kws = out.kw;
  let marks = out.marks;
  let nm = 0;
  let j = 0;
  let i = 0;
  let ws = 1;
  while (i < n) {
    const c = s.charCodeAt(i);
    const cl = c < 128 ? CLASS[c] : isSpace(c) ? SPACE : WORD;
    if (cl === SPACE) {
      ws = 1;
      i++;
      continue;
    }
    const start = i;
    let kind: number;
    let kw = 0;
    if (cl === WORD) {
      kind = K_WORD;
      i = wordEnd(s, i + 1, n);
      kw = kwOf(s, start, i);
    } else if (cl === SINGLE) {
      kind = SINGLE_KIND[c];
      i++;
    } else if (cl === QUOTE) {
      const e = stringEnd(s, i);
      if (e < 0) (errors ??= []).push({ code: 'UNBALANCED_QUOTE', message: 'a quoted string is not closed', pos: i });
      i = e < 0 ? n : e;
      kind = K_STRING;
    } else if (cl === BACKQUOTE) {
      const e = s.indexOf('`', i + 1);
      if (e < 0)
        (errors ??= []).push({
          code: 'UNBALANCED_BACKQUOTE',
          message: 'a macro call is not closed by a backquote',
          pos: i,
        });
      i = e < 0 ? n : e + 1;
      kind = K_MACRO;
    } else if (cl === OP || s.charCodeAt(i + 1) === 61) {
      kind = K_OP;
      i += c !== 61 && s.charCodeAt(i + 1) === 61 ? 2 : 1;
    } else {
      // a `!` not followed by `=` starts a word
      kind = K_WORD;
      i = wordEnd(s, i + 1, n);
    }
    if (j === cap) {
      out.n = j;
      grow(out);
      cap = out.kind.length;
      kinds = out.kind;
      starts = out.start;
      ends = out.end;
      wss = out.ws;
      kws = out.kw;
      marks = out.marks;
    }
    kinds[j] = kind;
    starts[j] = start;
    ends[j] = i;
    wss[j] = ws;
    kws[j] = kw;
    if (isStructural(kind)) marks[nm++] = j;
    j++;
    ws = 0;
  }
  out.n = j;
  out.nm = nm;
  return errors ?? NO_ERRORS;
}

/** The tokens as objects (the packed form is what the parser reads). */
export function lex(s: string): LexResult {
  const t = newToks(16);
  const errors = lexInto(s, t);
  const tokens: Token[] = [];
  for (let j = 0; j < t.n; j++)
    tokens.push({ kind: KIND_NAMES[t.kind[j]], start: t.start[j], end: t.end[j], ws: t.ws[j] === 1 });
  return { tokens, errors: errors === NO_ERRORS ? [] : [...errors] };
}
