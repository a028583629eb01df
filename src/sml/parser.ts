/** Recursive-descent parser of the SML subset (SML.md §2): one method per grammar rule, positions on every node. */

import type { RawError } from './errors.ts';
import type { Token } from './lexer.ts';

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

const FIELD = /^[A-Za-z_@][A-Za-z0-9_.@-]*$/;
const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IN']);

export function parse(text: string, tokens: Token[]): Pipeline {
  return new Parser(text, tokens).pipeline();
}

/** Unquotes a string token's text (`\"` and `\\` escapes). */
export function unquote(s: string): string {
  const body = s.endsWith('"') && s.length > 1 ? s.slice(1, -1) : s.slice(1);
  return body.replace(/\\(.)/g, '$1');
}

class Parser {
  private readonly errors: RawError[] = [];
  /** Cursor and end (exclusive) of the command being parsed. */
  private i = 0;
  private end = 0;

  constructor(private readonly text: string, private readonly toks: Token[]) {}

  private err(code: RawError['code'], message: string, pos: number): void {
    this.errors.push({ code, message, pos });
  }
  private src(t: Token): string {
    return this.text.slice(t.start, t.end);
  }
  private peek(k = 0): Token | undefined {
    return this.i + k < this.end ? this.toks[this.i + k] : undefined;
  }
  private isKeyword(t: Token | undefined, kw: string): boolean {
    return t !== undefined && t.kind === 'word' && t.end - t.start === kw.length && this.text.startsWith(kw, t.start);
  }
  private here(): number {
    return this.peek()?.start ?? (this.end > 0 ? this.toks[this.end - 1].end : this.text.length);
  }

  /** pipeline := command ( "|" command )* — pipes inside (), [] do not split. */
  pipeline(): Pipeline {
    const commands: Command[] = [];
    const open: Token[] = [];
    let from = 0;
    for (let k = 0; k <= this.toks.length; k++) {
      const t = this.toks[k];
      if (t === undefined || (t.kind === 'pipe' && open.length === 0)) {
        commands.push(this.command(from, k, t ? t.start : this.text.length));
        from = k + 1;
      } else if (t.kind === 'lparen' || t.kind === 'lbracket') open.push(t);
      else if (t.kind === 'rparen' || t.kind === 'rbracket') {
        const want = t.kind === 'rparen' ? 'lparen' : 'lbracket';
        if (open.length && open[open.length - 1].kind === want) open.pop();
        else if (open.some((o) => o.kind === want)) {
          // close the inner unmatched openers: they are the unbalanced ones
          while (open[open.length - 1].kind !== want) this.unbalanced(open.pop()!);
          open.pop();
        } else this.unbalanced(t);
      }
    }
    for (const o of open) this.unbalanced(o);
    return { commands, errors: this.errors };
  }

  private unbalanced(t: Token): void {
    const paren = t.kind === 'lparen' || t.kind === 'rparen';
    this.err(paren ? 'UNBALANCED_PAREN' : 'UNBALANCED_BRACKET', `unbalanced ${paren ? 'parenthesis' : 'square bracket'} ${this.src(t)}`, t.start);
  }

  /** command := source | search | WORD anything — tokens [from, to). */
  private command(from: number, to: number, endPos: number): Command {
    this.i = from;
    this.end = to;
    const first = this.peek();
    const cmd: Command = { kind: 'other', name: '', start: first?.start ?? endPos, end: to > from ? this.toks[to - 1].end : endPos, patterns: [], comparisons: [] };
    if (!first) {
      if (this.toks.length > 0) this.err('SYNTAX', 'empty command between pipes', endPos);
      return cmd;
    }
    cmd.name = first.kind === 'word' ? this.src(first) : '';
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
      if (!t) break;
      if (t.kind === 'word' || t.kind === 'string') {
        const raw = this.src(t);
        cmd.patterns.push({ value: t.kind === 'string' ? unquote(raw) : raw, start: t.start, end: t.end });
      } else if (t.kind !== 'comma') {
        this.err('SYNTAX', `unexpected ${JSON.stringify(this.src(t))} in source`, t.start);
      }
      this.i++;
    }
    if (cmd.patterns.length === 0) this.err('SYNTAX', 'source names no index pattern', cmd.end);
  }

  /** search := "search" expr — anything left over is reported and skipped. */
  private search(cmd: Command): void {
    const before = this.errors.length;
    while (this.peek()) {
      const at = this.i;
      this.expr(cmd);
      if (this.i === at) {
        const t = this.peek()!;
        if (t.kind !== 'rparen' && t.kind !== 'rbracket') this.err('SYNTAX', `unexpected ${JSON.stringify(this.src(t))}`, t.start);
        this.i++;
      }
    }
    if (cmd.end === cmd.start + 6 && this.errors.length === before) this.err('SYNTAX', 'search has no expression', cmd.start);
  }

  /** expr := or */
  private expr(cmd: Command): void {
    this.or(cmd);
  }

  /** or := and ( "OR" and )* */
  private or(cmd: Command): void {
    const at = this.i;
    this.and(cmd);
    while (this.isKeyword(this.peek(), 'OR')) {
      const op = this.peek()!;
      if (this.i === at) this.err('SYNTAX', 'OR needs an expression on its left', op.start);
      this.i++;
      if (!this.startsOperand()) this.err('SYNTAX', 'OR needs an expression on its right', op.start);
      else this.and(cmd);
    }
  }

  /** and := not ( ["AND"] not )* — juxtaposition is AND. */
  private and(cmd: Command): void {
    if (!this.startsOperand()) return;
    this.not(cmd);
    for (;;) {
      const t = this.peek();
      if (this.isKeyword(t, 'AND')) {
        this.i++;
        if (!this.startsOperand()) {
          this.err('SYNTAX', 'AND needs an expression on its right', t!.start);
          return;
        }
      } else if (!this.startsOperand()) return;
      this.not(cmd);
    }
  }

  /** An operand may start here: not `)`, `]`, OR, AND, or the end. */
  private startsOperand(): boolean {
    const t = this.peek();
    return t !== undefined && t.kind !== 'rparen' && t.kind !== 'rbracket' && !this.isKeyword(t, 'OR') && !this.isKeyword(t, 'AND');
  }

  /** not := "NOT" not | primary */
  private not(cmd: Command): void {
    const t = this.peek()!;
    if (this.isKeyword(t, 'NOT')) {
      this.i++;
      if (!this.startsOperand()) this.err('SYNTAX', 'NOT needs an expression on its right', t.start);
      else this.not(cmd);
      return;
    }
    this.primary(cmd);
  }

  /** primary := "(" expr ")" | "[" … "]" (kept, not analysed) | comparison | term */
  private primary(cmd: Command): void {
    const t = this.peek()!;
    if (t.kind === 'lparen') {
      this.i++;
      this.expr(cmd);
      if (this.peek()?.kind === 'rparen') this.i++;
      else this.err('UNBALANCED_PAREN', 'unbalanced parenthesis (', t.start);
      return;
    }
    if (t.kind === 'lbracket') return this.skipBrackets();
    if (this.comparisonAt(0) || (this.isTextOp() && this.comparisonAt(1))) return this.comparison(cmd);
    this.term();
  }

  /** A subsearch in square brackets is kept verbatim *(ours)*. */
  private skipBrackets(): void {
    let depth = 0;
    while (this.peek()) {
      const k = this.peek()!.kind;
      this.i++;
      if (k === 'lbracket') depth++;
      else if (k === 'rbracket' && --depth === 0) return;
    }
  }

  /** `text` followed by white space is the operator only when a comparison follows. */
  private isTextOp(): boolean {
    const t = this.peek();
    const next = this.peek(1);
    return t !== undefined && t.kind === 'word' && this.src(t) === 'text' && next !== undefined && next.ws;
  }

  private comparisonAt(k: number): boolean {
    const f = this.peek(k);
    if (!f || f.kind !== 'word' || !FIELD.test(this.src(f)) || KEYWORDS.has(this.src(f))) return false;
    const op = this.peek(k + 1);
    return op !== undefined && (op.kind === 'op' || (this.isKeyword(op, 'IN') && this.peek(k + 2)?.kind === 'lparen'));
  }

  /** comparison := ["text"] FIELD OP value | ["text"] FIELD "IN" "(" value ( "," value )* ")" */
  private comparison(cmd: Command): void {
    const textOp = !this.comparisonAt(0);
    if (textOp) this.i++;
    const f = this.peek()!;
    cmd.comparisons.push({ field: this.src(f), start: f.start, end: f.end, textOp });
    this.i++;
    const op = this.peek()!;
    this.i++;
    if (op.kind === 'op') {
      this.value(op.end);
      return;
    }
    const lp = this.peek()!;
    this.i++;
    for (;;) {
      this.value(this.here());
      const t = this.peek();
      if (t?.kind === 'comma') this.i++;
      else if (t?.kind === 'rparen') {
        this.i++;
        return;
      } else {
        if (!t) this.err('UNBALANCED_PAREN', 'unbalanced parenthesis (', lp.start);
        else this.err('SYNTAX', `expected , or ) in IN list, found ${JSON.stringify(this.src(t))}`, t.start);
        return;
      }
    }
  }

  /** value := quoted string | bare word (adjacent words and operators glue: `a=b`, `10.0.0.*`). */
  private value(pos: number): void {
    const t = this.peek();
    if (t && t.kind === 'string') {
      this.i++;
      return;
    }
    if (!t || (t.kind !== 'word' && t.kind !== 'op' && t.kind !== 'macro') || this.isKeyword(t, 'OR') || this.isKeyword(t, 'AND')) {
      this.err('SYNTAX', 'a comparison needs a value', t?.start ?? pos);
      return;
    }
    this.glue();
  }

  /** term := quoted string | bare word — free text, never changed. */
  private term(): void {
    const t = this.peek()!;
    if (t.kind === 'word' || t.kind === 'op') this.glue();
    else this.i++;
  }

  private glue(): void {
    this.i++;
    for (let t = this.peek(); t && !t.ws && (t.kind === 'word' || t.kind === 'op'); t = this.peek()) this.i++;
  }
}
