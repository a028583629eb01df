/**
 * Tokens packed in typed arrays: the lexer fills one buffer that the parser reads, so a query costs no
 * object per token. One shared buffer serves the analysis (it is synchronous and never re-entered).
 * The lexer also notes each word's keyword and where the structural tokens are, so the parser does not
 * make a second pass over every token.
 */
export type TokenKind =
  'word' | 'string' | 'macro' | 'pipe' | 'lparen' | 'rparen' | 'lbracket' | 'rbracket' | 'comma' | 'op';

export const K = {
  word: 0,
  string: 1,
  macro: 2,
  pipe: 3,
  lparen: 4,
  rparen: 5,
  lbracket: 6,
  rbracket: 7,
  comma: 8,
  op: 9,
} as const;
export const KIND_NAMES: readonly TokenKind[] = [
  'word',
  'string',
  'macro',
  'pipe',
  'lparen',
  'rparen',
  'lbracket',
  'rbracket',
  'comma',
  'op',
];

/** Keyword codes of word tokens (0: none); case-sensitive, as the grammar reads them. */
export const KW = { none: 0, or: 1, and: 2, not: 3, in: 4, text: 5 } as const;

/** The keyword a word token spells exactly, else 0; character codes, no string calls. */
export function keywordOf(text: string, s: number, e: number): number {
  const len = e - s;
  if (len < 2 || len > 4) return 0;
  const c = text.charCodeAt(s);
  const d = text.charCodeAt(s + 1);
  if (len === 2) return c === 79 && d === 82 ? 1 : c === 73 && d === 78 ? 4 : 0; // OR, IN
  if (len === 3) {
    const f = text.charCodeAt(s + 2);
    if (c === 65) return d === 78 && f === 68 ? 2 : 0; // AND
    return c === 78 && d === 79 && f === 84 ? 3 : 0; // NOT
  }
  return c === 116 && d === 101 && text.charCodeAt(s + 2) === 120 && text.charCodeAt(s + 3) === 116 ? 5 : 0; // text
}

/** Pipes, parentheses and square brackets: the tokens that split commands and must balance. */
export function isStructural(kind: number): boolean {
  return kind >= 3 && kind <= 7;
}

export interface Toks {
  n: number;
  kind: Uint8Array;
  start: Int32Array;
  end: Int32Array;
  /** 1: white space (or the start of the text) right before the token. */
  ws: Uint8Array;
  /** KW code of each token (0 for all but keywords). */
  kw: Uint8Array;
  /** Indices of the structural tokens, in order; `nm` of them. */
  marks: Int32Array;
  nm: number;
}

export function newToks(capacity = 256): Toks {
  return {
    n: 0,
    kind: new Uint8Array(capacity),
    start: new Int32Array(capacity),
    end: new Int32Array(capacity),
    ws: new Uint8Array(capacity),
    kw: new Uint8Array(capacity),
    marks: new Int32Array(capacity),
    nm: 0,
  };
}

/** The buffer the analysis lexes into, grown as needed and reused from query to query. */
export const shared: Toks = newToks();

export function grow(t: Toks): void {
  const cap = t.kind.length * 2;
  const kind = new Uint8Array(cap);
  const start = new Int32Array(cap);
  const end = new Int32Array(cap);
  const ws = new Uint8Array(cap);
  const kw = new Uint8Array(cap);
  const marks = new Int32Array(cap);
  kind.set(t.kind);
  start.set(t.start);
  end.set(t.end);
  ws.set(t.ws);
  kw.set(t.kw);
  marks.set(t.marks);
  t.kind = kind;
  t.start = start;
  t.end = end;
  t.ws = ws;
  t.kw = kw;
  t.marks = marks;
}

/** The packed form of token objects of `text` (for callers of parse() that lexed on their own). */
export function packTokens(
  text: string,
  tokens: ReadonlyArray<{ kind: TokenKind; start: number; end: number; ws: boolean }>,
): Toks {
  const t = newToks(Math.max(16, tokens.length));
  for (const x of tokens) {
    const j = t.n++;
    const kind = K[x.kind];
    t.kind[j] = kind;
    t.start[j] = x.start;
    t.end[j] = x.end;
    t.ws[j] = x.ws ? 1 : 0;
    t.kw[j] = kind === K.word ? keywordOf(text, x.start, x.end) : 0;
    if (isStructural(kind)) t.marks[t.nm++] = j;
  }
  return t;
}
