/** Linear-time lexer of SML text (SML.md §1). Offsets are UTF-16 indices into the lexed string. */

import type { RawError } from './errors.ts';

export type TokenKind = 'word' | 'string' | 'macro' | 'pipe' | 'lparen' | 'rparen' | 'lbracket' | 'rbracket' | 'comma' | 'op';

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

const SINGLE: Record<string, TokenKind> = { '|': 'pipe', '(': 'lparen', ')': 'rparen', '[': 'lbracket', ']': 'rbracket', ',': 'comma' };

export function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0xfeff;
}

/** Characters that end a bare word. `!` only ends it when it starts `!=`. */
function endsWord(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (isSpace(c)) return true;
  switch (c) {
    case 34: case 96: case 124: case 40: case 41: case 91: case 93: case 44: case 61: case 60: case 62: // " ` | ( ) [ ] , = < >
      return true;
    case 33: // !
      return s.charCodeAt(i + 1) === 61;
    default:
      return false;
  }
}

/** End offset of the quoted string opening at i, or -1 when it is never closed. */
export function stringEnd(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 92) j++; // backslash escapes the next character
    else if (c === 34) return j + 1;
  }
  return -1;
}

export function lex(s: string): LexResult {
  const tokens: Token[] = [];
  const errors: RawError[] = [];
  const n = s.length;
  let i = 0;
  let ws = true;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (isSpace(c)) {
      ws = true;
      i++;
      continue;
    }
    const start = i;
    let kind: TokenKind;
    const ch = s[i];
    if (c === 34) {
      const e = stringEnd(s, i);
      if (e < 0) errors.push({ code: 'UNBALANCED_QUOTE', message: 'a quoted string is not closed', pos: i });
      i = e < 0 ? n : e;
      kind = 'string';
    } else if (c === 96) {
      const e = s.indexOf('`', i + 1);
      if (e < 0) errors.push({ code: 'UNBALANCED_BACKQUOTE', message: 'a macro call is not closed by a backquote', pos: i });
      i = e < 0 ? n : e + 1;
      kind = 'macro';
    } else if (SINGLE[ch] !== undefined) {
      kind = SINGLE[ch];
      i++;
    } else if (c === 61 || c === 60 || c === 62 || (c === 33 && s.charCodeAt(i + 1) === 61)) {
      kind = 'op';
      i += (c !== 61 && s.charCodeAt(i + 1) === 61) ? 2 : 1;
    } else {
      kind = 'word';
      i++;
      while (i < n && !endsWord(s, i)) i++;
    }
    tokens.push({ kind, start, end: i, ws });
    ws = false;
  }
  return { tokens, errors };
}
