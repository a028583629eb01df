/** Recursive-descent parser of the SML subset the migration reads (docs/migration.md): one method per grammar rule, positions on every node. */

import { NO_ERRORS, type RawError } from './errors.ts';
import type { Token } from './lexer.ts';
import { K, KW, packTokens, type Toks } from './toks.ts';

export interface Comparison {
  field: string;
  /** Offsets of the field name. */
  start: number;
  end: number;
  textOp: boolean;
}

export interface Pattern {
  /** The index pattern, unquoted. */
  value: string;
  start: number;
  end: number;
}

export interface Command {
  kind: 'source' | 'search' | 'other';
  name: string;
  start: number;
  end: number;
  patterns: readonly Pattern[];
  comparisons: readonly Comparison[];
}

export interface Pipeline {
  commands: Command[];
  errors: readonly RawError[];
}

// shared by the many commands and queries that have none (frozen: nothing may add to them)
const NO_PATTERNS: readonly Pattern[] = Object.freeze([]);
const NO_COMPARISONS: readonly Comparison[] = Object.freeze([]);

// module-local copies: a loader may turn imported bindings into getters, too slow for the hot loop
const WORD = K.word,
  STRING = K.string,
  MACRO = K.macro,
  PIPE = K.pipe,
  LPAREN = K.lparen,
  RPAREN = K.rparen;
const LBRACKET = K.lbracket,
  RBRACKET = K.rbracket,
  COMMA = K.comma,
  OP = K.op;

// keyword codes (the lexer notes them per token), as module-local constants for the hot loop
const KW_OR = KW.or,
  KW_AND = KW.and,
  KW_NOT = KW.not,
  KW_IN = KW.in,
  KW_TEXT = KW.text;

/** Field names: `[A-Za-z_@][A-Za-z0-9_.@-]*` (1: may start a name, 2: may follow). */
const FIELD_CH = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_@]/.test(ch)) FIELD_CH[c] = 1;
  else if (/[0-9.-]/.test(ch)) FIELD_CH[c] = 2;
}

export function parse(text: string, tokens: Token[]): Pipeline {
  return parsePacked(text, packTokens(text, tokens));
}

/** parse() over tokens already packed by lexInto(). */
export function parsePacked(text: string, toks: Toks): Pipeline {
  return parser.run(text, toks);
}

/** Unquotes a string token's text (`\"` and `\\` escapes). */
export function unquote(s: string): string {
  const body = s.endsWith('"') && s.length > 1 ? s.slice(1, -1) : s.slice(1);
  return body.indexOf('\\') < 0 ? body : body.replace(/\\(.)/g, '$1');
}

/** The open brackets of the first pass: one array reused from query to query. */
const openStack: number[] = [];

const EMPTY = new Uint8Array(0);
const EMPTY32 = new Int32Array(0);

/**
 * Tokens are indices into the packed buffer; -1 is "no token". One parser serves every query (parsing is
 * synchronous and never re-entered): run() points it at a query's tokens.
 */
class Parser {
  /** Made at the first error: most queries have none. */
  private errors: RawError[] | undefined;
  /** The comparisons of the search command being parsed. */
  private cmps: Comparison[] = [];
  /** Cursor and end (exclusive) of the command being parsed. */
  private i = 0;
  private end = 0;
  private text = '';
  private kind: Uint8Array = EMPTY;
  private st: Int32Array = EMPTY32;
  private en: Int32Array = EMPTY32;
  private ws: Uint8Array = EMPTY;
  private kw: Uint8Array = EMPTY;
  private n = 0;

  run(text: string, toks: Toks): Pipeline {
    this.text = text;
    this.kind = toks.kind;
    this.st = toks.start;
    this.en = toks.end;
    this.ws = toks.ws;
    this.kw = toks.kw;
    this.n = toks.n;
    this.errors = undefined;
    this.i = 0;
    this.end = 0;
    const p = this.pipeline(toks.marks, toks.nm);
    // the last query's text and tokens are not held on to
    this.text = '';
    return p;
  }

  private err(code: RawError['code'], message: string, pos: number): void {
    (this.errors ??= []).push({ code, message, pos });
  }
  private src(t: number): string {
    return this.text.slice(this.st[t], this.en[t]);
  }
  /** A word's text; the two command names the analysis reads come from constants, not slices. */
  private word(t: number): string {
    const s = this.st[t];
    const x = this.text;
    // `s?ur?e`: source or search, told apart by their 2nd and 4th letters (character codes, no builtin call)
    if (this.en[t] - s === 6 && x.charCodeAt(s) === 115 && x.charCodeAt(s + 5) === 101) {
      const b = x.charCodeAt(s + 1);
      const c = x.charCodeAt(s + 2);
      const d = x.charCodeAt(s + 3);
      const e = x.charCodeAt(s + 4);
      if (b === 111 && c === 117 && d === 114 && e === 99) return 'source';
      if (b === 101 && c === 97 && d === 114 && e === 99) return 'search';
    }
    return x.slice(s, this.en[t]);
  }
  private peek(k = 0): number {
    return this.i + k < this.end ? this.i + k : -1;
  }
  private kindAt(t: number): number {
    return t < 0 ? -1 : this.kind[t];
  }
  /** Token t is the keyword (KW_*): the first pass set the codes of every word. */
  private isKeyword(t: number, kw: number): boolean {
    return t >= 0 && this.kw[t] === kw;
  }
  private here(): number {
    const t = this.peek();
    return t >= 0 ? this.st[t] : this.end > 0 ? this.en[this.end - 1] : this.text.length;
  }

  /** pipeline := command ( "|" command )* — pipes inside (), [] do not split; only structural tokens are read. */
  private pipeline(marks: Int32Array, nm: number): Pipeline {
    const commands: Command[] = [];
    const open = openStack;
    if (open.length) open.length = 0; // left over by an unbalanced query (setting length is a runtime call)
    let from = 0;
    for (let m = 0; m <= nm; m++) {
      const k = m < nm ? marks[m] : this.n;
      const kind = m < nm ? this.kind[k] : -1;
      if (kind === -1 || (kind === PIPE && open.length === 0)) {
        commands.push(this.command(from, k, kind === -1 ? this.text.length : this.st[k]));
        from = k + 1;
      } else if (kind === LPAREN || kind === LBRACKET) open.push(k);
      else if (kind === RPAREN || kind === RBRACKET) {
        const want = kind === RPAREN ? LPAREN : LBRACKET;
        if (open.length && this.kind[open[open.length - 1]] === want) open.pop();
        else if (open.some((o) => this.kind[o] === want)) {
          // close the inner unmatched openers: they are the unbalanced ones
          while (this.kind[open[open.length - 1]] !== want) this.unbalanced(open.pop()!);
          open.pop();
        } else this.unbalanced(k);
      }
    }
    for (const o of open) this.unbalanced(o);
    return { commands, errors: this.errors ?? NO_ERRORS };
  }

  private unbalanced(t: number): void {
    const paren = this.kind[t] === LPAREN || this.kind[t] === RPAREN;
    this.err(
      paren ? 'UNBALANCED_PAREN' : 'UNBALANCED_BRACKET',
      `unbalanced ${paren ? 'parenthesis' : 'square bracket'} ${this.src(t)}`,
      this.st[t],
    );
  }

  /** command := source | search | WORD anything — tokens [from, to). */
  private command(from: number, to: number, endPos: number): Command {
    this.i = from;
    this.end = to;
    const first = this.peek();
    const cmd: Command = {
      kind: 'other',
      name: '',
      start: first >= 0 ? this.st[first] : endPos,
      end: to > from ? this.en[to - 1] : endPos,
      patterns: NO_PATTERNS,
      comparisons: NO_COMPARISONS,
    };
    if (first < 0) {
      if (this.n > 0) this.err('SYNTAX', 'empty command between pipes', endPos);
      return cmd;
    }
    cmd.name = this.kind[first] === WORD ? this.word(first) : '';
    if (cmd.name === 'source') {
      cmd.kind = 'source';
      this.i++;
      this.source(cmd);
    } else if (cmd.name === 'search') {
      cmd.kind = 'search';
      this.i++;
      this.search(cmd);
    }
    return cmd;
  }

  /** source := "source" pattern ( "," pattern )* */
  private source(cmd: Command): void {
    const patterns: Pattern[] = [];
    for (;;) {
      const t = this.peek();
      if (t < 0) break;
      const k = this.kind[t];
      if (k === WORD || k === STRING) {
        const raw = this.src(t);
        patterns.push({ value: k === STRING ? unquote(raw) : raw, start: this.st[t], end: this.en[t] });
      } else if (k !== COMMA) {
        this.err('SYNTAX', `unexpected ${JSON.stringify(this.src(t))} in source`, this.st[t]);
      }
      this.i++;
    }
    if (patterns.length === 0) this.err('SYNTAX', 'source names no index pattern', cmd.end);
    else cmd.patterns = patterns;
  }

  /** search := "search" expr — anything left over is reported and skipped. */
  private search(cmd: Command): void {
    const before = this.errors?.length ?? 0;
    this.cmps = [];
    while (this.peek() >= 0) {
      const at = this.i;
      this.expr();
      if (this.i === at) {
        const t = this.peek();
        if (this.kind[t] !== RPAREN && this.kind[t] !== RBRACKET)
          this.err('SYNTAX', `unexpected ${JSON.stringify(this.src(t))}`, this.st[t]);
        this.i++;
      }
    }
    if (this.cmps.length) cmd.comparisons = this.cmps;
    if (cmd.end === cmd.start + 6 && (this.errors?.length ?? 0) === before)
      this.err('SYNTAX', 'search has no expression', cmd.start);
  }

  /** expr := or */
  private expr(): void {
    this.or();
  }

  /** or := and ( "OR" and )* */
  private or(): void {
    const at = this.i;
    this.and();
    while (this.isKeyword(this.peek(), KW_OR)) {
      const op = this.st[this.peek()];
      if (this.i === at) this.err('SYNTAX', 'OR needs an expression on its left', op);
      this.i++;
      if (!this.startsOperand()) this.err('SYNTAX', 'OR needs an expression on its right', op);
      else this.and();
    }
  }

  /** and := not ( ["AND"] not )* — juxtaposition is AND. */
  private and(): void {
    if (!this.startsOperand()) return;
    this.not();
    for (;;) {
      const t = this.peek();
      if (this.isKeyword(t, KW_AND)) {
        this.i++;
        if (!this.startsOperand()) {
          this.err('SYNTAX', 'AND needs an expression on its right', this.st[t]);
          return;
        }
      } else if (!this.startsOperand()) return;
      this.not();
    }
  }

  /** An operand may start here: not `)`, `]`, OR, AND, or the end. */
  private startsOperand(): boolean {
    const t = this.peek();
    return (
      t >= 0 &&
      this.kind[t] !== RPAREN &&
      this.kind[t] !== RBRACKET &&
      !this.isKeyword(t, KW_OR) &&
      !this.isKeyword(t, KW_AND)
    );
  }

  /** not := "NOT" not | primary */
  private not(): void {
    const t = this.peek();
    if (this.isKeyword(t, KW_NOT)) {
      this.i++;
      if (!this.startsOperand()) this.err('SYNTAX', 'NOT needs an expression on its right', this.st[t]);
      else this.not();
      return;
    }
    this.primary();
  }

  /** primary := "(" expr ")" | "[" … "]" (kept, not analysed) | comparison | term */
  private primary(): void {
    const t = this.peek();
    const k = this.kind[t];
    if (k === LPAREN) {
      this.i++;
      this.expr();
      if (this.kindAt(this.peek()) === RPAREN) this.i++;
      else this.err('UNBALANCED_PAREN', 'unbalanced parenthesis (', this.st[t]);
      return;
    }
    if (k === LBRACKET) return this.skipBrackets();
    if (this.comparisonAt(0)) return this.comparison(false);
    if (this.isTextOp() && this.comparisonAt(1)) return this.comparison(true);
    this.term();
  }

  /** A subsearch in square brackets is kept verbatim *(ours)*. */
  private skipBrackets(): void {
    let depth = 0;
    while (this.peek() >= 0) {
      const k = this.kind[this.peek()];
      this.i++;
      if (k === LBRACKET) depth++;
      else if (k === RBRACKET && --depth === 0) return;
    }
  }

  /** `text` followed by white space is the operator only when a comparison follows. */
  private isTextOp(): boolean {
    const next = this.peek(1);
    return this.isKeyword(this.peek(), KW_TEXT) && next >= 0 && this.ws[next] === 1;
  }

  /** A field name (FIELD_CH) that is not one of AND, OR, NOT, IN. */
  private isField(t: number): boolean {
    const s = this.st[t];
    const e = this.en[t];
    const first = this.text.charCodeAt(s);
    if (first >= 128 || FIELD_CH[first] !== 1) return false;
    for (let j = s + 1; j < e; j++) {
      const c = this.text.charCodeAt(j);
      if (c >= 128 || FIELD_CH[c] === 0) return false;
    }
    const kw = this.kw[t];
    return kw === 0 || kw === KW_TEXT;
  }

  /** A comparison starts k tokens ahead (the operator is checked first: it is cheaper than the name). */
  private comparisonAt(k: number): boolean {
    const f = this.peek(k);
    if (f < 0 || this.kind[f] !== WORD) return false;
    const op = this.peek(k + 1);
    return (
      op >= 0 &&
      (this.kind[op] === OP || (this.isKeyword(op, KW_IN) && this.kindAt(this.peek(k + 2)) === LPAREN)) &&
      this.isField(f)
    );
  }

  /** comparison := ["text"] FIELD OP value | ["text"] FIELD "IN" "(" value ( "," value )* ")" */
  private comparison(textOp: boolean): void {
    if (textOp) this.i++;
    const f = this.peek();
    this.cmps.push({ field: this.src(f), start: this.st[f], end: this.en[f], textOp });
    this.i++;
    const op = this.peek();
    this.i++;
    if (this.kind[op] === OP) {
      this.value(this.en[op]);
      return;
    }
    const lp = this.st[this.peek()];
    this.i++;
    for (;;) {
      this.value(this.here());
      const t = this.peek();
      const k = this.kindAt(t);
      if (k === COMMA) this.i++;
      else if (k === RPAREN) {
        this.i++;
        return;
      } else {
        if (t < 0) this.err('UNBALANCED_PAREN', 'unbalanced parenthesis (', lp);
        else this.err('SYNTAX', `expected , or ) in IN list, found ${JSON.stringify(this.src(t))}`, this.st[t]);
        return;
      }
    }
  }

  /** value := quoted string | bare word (adjacent words and operators glue: `a=b`, `10.0.0.*`). */
  private value(pos: number): void {
    const t = this.peek();
    const k = this.kindAt(t);
    if (k === STRING) {
      this.i++;
      return;
    }
    if (t < 0 || (k !== WORD && k !== OP && k !== MACRO) || this.isKeyword(t, KW_OR) || this.isKeyword(t, KW_AND)) {
      this.err('SYNTAX', 'a comparison needs a value', t >= 0 ? this.st[t] : pos);
      return;
    }
    this.glue();
  }

  /** term := quoted string | bare word — free text, never changed. */
  private term(): void {
    const k = this.kind[this.peek()];
    if (k === WORD || k === OP) this.glue();
    else this.i++;
  }

  private glue(): void {
    this.i++;
    for (
      let t = this.peek();
      t >= 0 && this.ws[t] === 0 && (this.kind[t] === WORD || this.kind[t] === OP);
      t = this.peek()
    )
      this.i++;
  }
}

const parser = new Parser();
