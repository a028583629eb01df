/** Recursive-descent parser of the SML subset (SML.md §2): one method per grammar rule, positions on every node. */

import type { RawError } from './errors.ts';
import type { Token } from './lexer.ts';
import { K, packTokens, type Toks } from './toks.ts';

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
  patterns: Pattern[];
  comparisons: Comparison[];
}

export interface Pipeline {
  commands: Command[];
  errors: RawError[];
}

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

/** Keywords, found once per token by the first pass (0: none): the grammar asks about them many times. */
const KW_OR = 1,
  KW_AND = 2,
  KW_NOT = 3,
  KW_IN = 4,
  KW_TEXT = 5;
/** The keyword codes of the tokens being parsed: one buffer reused from query to query (parsing is synchronous). */
let kwBuf = new Uint8Array(256);

/** The keyword a word token spells exactly (case-sensitive), else 0; character codes, no string calls. */
function keywordOf(text: string, s: number, e: number): number {
  const len = e - s;
  if (len < 2 || len > 4) return 0;
  const c = text.charCodeAt(s);
  const d = text.charCodeAt(s + 1);
  if (len === 2) return c === 79 && d === 82 ? KW_OR : c === 73 && d === 78 ? KW_IN : 0;
  if (len === 3) {
    const f = text.charCodeAt(s + 2);
    if (c === 65) return d === 78 && f === 68 ? KW_AND : 0; // AND
    return c === 78 && d === 79 && f === 84 ? KW_NOT : 0; // NOT
  }
  return c === 116 && d === 101 && text.charCodeAt(s + 2) === 120 && text.charCodeAt(s + 3) === 116 ? KW_TEXT : 0;
}

/** Field names: `[A-Za-z_@][A-Za-z0-9_.@-]*` (1: may start a name, 2: may follow). */
const FIELD_CH = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_@]/.test(ch)) FIELD_CH[c] = 1;
  else if (/[0-9.-]/.test(ch)) FIELD_CH[c] = 2;
}

export function parse(text: string, tokens: Token[]): Pipeline {
  return new Parser(text, packTokens(tokens)).pipeline();
}

/** parse() over tokens already packed by lexInto(). */
export function parsePacked(text: string, toks: Toks): Pipeline {
  return new Parser(text, toks).pipeline();
}

/** Unquotes a string token's text (`\"` and `\\` escapes). */
export function unquote(s: string): string {
  const body = s.endsWith('"') && s.length > 1 ? s.slice(1, -1) : s.slice(1);
  return body.indexOf('\\') < 0 ? body : body.replace(/\\(.)/g, '$1');
}

/** The open brackets of the first pass: one array reused from query to query. */
const openStack: number[] = [];

/** Tokens are indices into the packed buffer; -1 is "no token". */
class Parser {
  private readonly errors: RawError[] = [];
  /** Cursor and end (exclusive) of the command being parsed. */
  private i = 0;
  private end = 0;
  private readonly kind: Uint8Array;
  private readonly st: Int32Array;
  private readonly en: Int32Array;
  private readonly ws: Uint8Array;
  private readonly kw: Uint8Array;
  private readonly n: number;

  constructor(
    private readonly text: string,
    toks: Toks,
  ) {
    this.kind = toks.kind;
    this.st = toks.start;
    this.en = toks.end;
    this.ws = toks.ws;
    this.n = toks.n;
    if (kwBuf.length < toks.n) kwBuf = new Uint8Array(Math.max(toks.n, kwBuf.length * 2));
    this.kw = kwBuf;
  }

  private err(code: RawError['code'], message: string, pos: number): void {
    this.errors.push({ code, message, pos });
  }
  private src(t: number): string {
    return this.text.slice(this.st[t], this.en[t]);
  }
  /** A word's text; the two command names the analysis reads come from constants, not slices. */
  private word(t: number): string {
    const s = this.st[t];
    if (this.en[t] - s === 6 && this.text.charCodeAt(s) === 115) {
      if (this.text.startsWith('source', s)) return 'source';
      if (this.text.startsWith('search', s)) return 'search';
    }
    return this.text.slice(s, this.en[t]);
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

  /** pipeline := command ( "|" command )* — pipes inside (), [] do not split. */
  pipeline(): Pipeline {
    const commands: Command[] = [];
    const open = openStack;
    if (open.length) open.length = 0; // left over by an unbalanced query (setting length is a runtime call)
    let from = 0;
    for (let k = 0; k <= this.n; k++) {
      const kind = k < this.n ? this.kind[k] : -1;
      if (kind === WORD) this.kw[k] = keywordOf(this.text, this.st[k], this.en[k]);
      else if (kind >= 0) this.kw[k] = 0;
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
    return { commands, errors: this.errors };
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
      patterns: [],
      comparisons: [],
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
    for (;;) {
      const t = this.peek();
      if (t < 0) break;
      const k = this.kind[t];
      if (k === WORD || k === STRING) {
        const raw = this.src(t);
        cmd.patterns.push({ value: k === STRING ? unquote(raw) : raw, start: this.st[t], end: this.en[t] });
      } else if (k !== COMMA) {
        this.err('SYNTAX', `unexpected ${JSON.stringify(this.src(t))} in source`, this.st[t]);
      }
      this.i++;
    }
    if (cmd.patterns.length === 0) this.err('SYNTAX', 'source names no index pattern', cmd.end);
  }

  /** search := "search" expr — anything left over is reported and skipped. */
  private search(cmd: Command): void {
    const before = this.errors.length;
    while (this.peek() >= 0) {
      const at = this.i;
      this.expr(cmd);
      if (this.i === at) {
        const t = this.peek();
        if (this.kind[t] !== RPAREN && this.kind[t] !== RBRACKET)
          this.err('SYNTAX', `unexpected ${JSON.stringify(this.src(t))}`, this.st[t]);
        this.i++;
      }
    }
    if (cmd.end === cmd.start + 6 && this.errors.length === before)
      this.err('SYNTAX', 'search has no expression', cmd.start);
  }

  /** expr := or */
  private expr(cmd: Command): void {
    this.or(cmd);
  }

  /** or := and ( "OR" and )* */
  private or(cmd: Command): void {
    const at = this.i;
    this.and(cmd);
    while (this.isKeyword(this.peek(), KW_OR)) {
      const op = this.st[this.peek()];
      if (this.i === at) this.err('SYNTAX', 'OR needs an expression on its left', op);
      this.i++;
      if (!this.startsOperand()) this.err('SYNTAX', 'OR needs an expression on its right', op);
      else this.and(cmd);
    }
  }

  /** and := not ( ["AND"] not )* — juxtaposition is AND. */
  private and(cmd: Command): void {
    if (!this.startsOperand()) return;
    this.not(cmd);
    for (;;) {
      const t = this.peek();
      if (this.isKeyword(t, KW_AND)) {
        this.i++;
        if (!this.startsOperand()) {
          this.err('SYNTAX', 'AND needs an expression on its right', this.st[t]);
          return;
        }
      } else if (!this.startsOperand()) return;
      this.not(cmd);
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
  private not(cmd: Command): void {
    const t = this.peek();
    if (this.isKeyword(t, KW_NOT)) {
      this.i++;
      if (!this.startsOperand()) this.err('SYNTAX', 'NOT needs an expression on its right', this.st[t]);
      else this.not(cmd);
      return;
    }
    this.primary(cmd);
  }

  /** primary := "(" expr ")" | "[" … "]" (kept, not analysed) | comparison | term */
  private primary(cmd: Command): void {
    const t = this.peek();
    const k = this.kind[t];
    if (k === LPAREN) {
      this.i++;
      this.expr(cmd);
      if (this.kindAt(this.peek()) === RPAREN) this.i++;
      else this.err('UNBALANCED_PAREN', 'unbalanced parenthesis (', this.st[t]);
      return;
    }
    if (k === LBRACKET) return this.skipBrackets();
    if (this.comparisonAt(0)) return this.comparison(cmd, false);
    if (this.isTextOp() && this.comparisonAt(1)) return this.comparison(cmd, true);
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
  private comparison(cmd: Command, textOp: boolean): void {
    if (textOp) this.i++;
    const f = this.peek();
    cmd.comparisons.push({ field: this.src(f), start: this.st[f], end: this.en[f], textOp });
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
