/**
 * Tokens packed in typed arrays: the lexer fills one buffer that the parser reads, so a query costs no
 * object per token. One shared buffer serves the analysis (it is synchronous and never re-entered).
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

export interface Toks {
  n: number;
  kind: Uint8Array;
  start: Int32Array;
  end: Int32Array;
  /** 1: white space (or the start of the text) right before the token. */
  ws: Uint8Array;
}

export function newToks(capacity = 256): Toks {
  return {
    n: 0,
    kind: new Uint8Array(capacity),
    start: new Int32Array(capacity),
    end: new Int32Array(capacity),
    ws: new Uint8Array(capacity),
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
  kind.set(t.kind);
  start.set(t.start);
  end.set(t.end);
  ws.set(t.ws);
  t.kind = kind;
  t.start = start;
  t.end = end;
  t.ws = ws;
}

export function pushToken(t: Toks, kind: number, start: number, end: number, ws: boolean): void {
  if (t.n === t.kind.length) grow(t);
  const j = t.n++;
  t.kind[j] = kind;
  t.start[j] = start;
  t.end[j] = end;
  t.ws[j] = ws ? 1 : 0;
}

/** The packed form of token objects (for callers of parse() that lexed on their own). */
export function packTokens(tokens: ReadonlyArray<{ kind: TokenKind; start: number; end: number; ws: boolean }>): Toks {
  const t = newToks(Math.max(16, tokens.length));
  for (const x of tokens) pushToken(t, K[x.kind], x.start, x.end, x.ws);
  return t;
}
