/** Textual, recursive macro expansion (a macro call in backticks expands to its definition) with a position map back to the text each piece came from. */

import { MAX_EXPANSION_CHARS, MAX_MACRO_CALLS, MAX_MACRO_DEPTH, NO_ERRORS, type RawError } from './errors.ts';
import { callMemo, callOf, type CallMemo, type MacroTable } from './calls.ts';
import { stringEnd } from './lexer.ts';
import type { MacroDef } from './types.ts';

// module-local copies: a loader may turn imported bindings into getters, read on every call
const MAX_DEPTH = MAX_MACRO_DEPTH;
const MAX_CALLS = MAX_MACRO_CALLS;
const MAX_CHARS = MAX_EXPANSION_CHARS;
const strEnd = stringEnd;

/** A macro call as expanded; turned into the public MacroNode by explain(). */
export interface ExpNode {
  expansion_position: number;
  original: string;
  expansion: string;
  name: string;
  macros: readonly ExpNode[];
  /** Offset in `original` of the first-level call this node belongs to. */
  rootPos: number;
}

/** A run of the expansion: copied from `original` (node null) or produced by a macro's own definition. */
export interface Seg {
  start: number;
  end: number;
  /** Offset in `original` of the first character (for macro text: the first-level call). */
  orig: number;
  node: ExpNode | null;
}

export interface Expanded {
  expansion: string;
  segs: readonly Seg[];
  nodes: readonly ExpNode[];
  errors: readonly RawError[];
}

// a query without macro calls (most of them) shares this (frozen: nothing may add to it)
const NO_NODES: readonly ExpNode[] = Object.freeze([]);

interface State {
  /** The definitions, with the calls already resolved in them. */
  memo: CallMemo;
  calls: number;
  /** Made at the first failed call. */
  errors: RawError[] | undefined;
  /** The size budget is reported once, not for every call after it. */
  tooLarge: boolean;
  /** The same failing call met many times (e.g. in every branch) is reported once. */
  seen: Set<string> | undefined;
  /** The definitions being expanded, outermost first: pushed and popped around each nested expansion. */
  stack: MacroDef[];
}

interface Part {
  readonly out: string;
  readonly segs: readonly Seg[];
  readonly nodes: readonly ExpNode[];
}

export function expand(original: string, table: MacroTable): Expanded {
  if (original.indexOf('`') < 0) {
    return { expansion: original, segs: oneSeg(original, -1), nodes: NO_NODES, errors: NO_ERRORS };
  }
  const st: State = {
    memo: callMemo(table),
    calls: 0,
    errors: undefined,
    tooLarge: false,
    seen: undefined,
    stack: [],
  };
  const top = expandText(original, 1, st, -1);
  return { expansion: top.out, segs: top.segs, nodes: top.nodes, errors: st.errors ?? NO_ERRORS };
}

/** A text without macro calls is one segment, copied from `original` (rootPos < 0) or from the call at rootPos. */
function oneSeg(text: string, rootPos: number): Seg[] {
  return [{ start: 0, end: text.length, orig: rootPos < 0 ? 0 : rootPos, node: null }];
}

/** The pieces of one expanded text, appended in order. */
class Builder implements Part {
  out = '';
  readonly segs: Seg[] = [];
  readonly nodes: ExpNode[] = [];
  private readonly chunks: string[] = [];
  private len = 0;

  private readonly text: string;
  private readonly rootPos: number;
  constructor(text: string, rootPos: number) {
    this.text = text;
    this.rootPos = rootPos;
  }

  verbatim(from: number, to: number): void {
    if (to <= from) return;
    this.segs.push({
      start: this.len,
      end: this.len + to - from,
      orig: this.rootPos < 0 ? from : this.rootPos,
      node: null,
    });
    this.chunks.push(this.text.slice(from, to));
    this.len += to - from;
  }

  expanded(part: Part, node: ExpNode): void {
    for (const s of part.segs)
      this.segs.push({ start: s.start + this.len, end: s.end + this.len, orig: s.orig, node: s.node ?? node });
    this.chunks.push(part.out);
    this.len += part.out.length;
  }

  /** One flat string: a rope (`+=`) would make the lexer's every character read walk it. */
  done(): Part {
    this.out = this.chunks.join('');
    return this;
  }
}

/** rootPos < 0: `text` is the original itself; else every piece maps to the first-level call at rootPos. */
function expandText(text: string, depth: number, st: State, rootPos: number): Part {
  let b = text.indexOf('`');
  // made at the first call: a backquote may sit only inside quoted strings
  let out: Builder | undefined;
  let cursor = 0;
  const n = text.length;
  // the macro calls as the lexer sees them: a backquote outside a quoted string opens one (native scans
  // jump from quote to backquote instead of reading every character)
  let q = b < 0 ? -1 : text.indexOf('"');
  while (b >= 0) {
    if (q >= 0 && q < b) {
      const e = strEnd(text, q);
      if (e < 0) break; // the string runs to the end: no call after it
      q = text.indexOf('"', e);
      if (b < e) b = text.indexOf('`', e);
      continue;
    }
    const start = b;
    const close = text.indexOf('`', b + 1);
    const i = close < 0 ? n : close + 1;
    out ??= new Builder(text, rootPos);
    out.verbatim(cursor, start);
    cursor = i;
    const call = text.slice(start, i);
    const node: ExpNode = {
      expansion_position: start,
      original: call,
      expansion: call,
      name: '',
      macros: NO_NODES,
      rootPos: rootPos < 0 ? start : rootPos,
    };
    const part = expandCall(node, depth, st);
    out.nodes.push(node);
    if (part) out.expanded(part, node);
    else out.verbatim(start, i);
    b = close < 0 ? -1 : text.indexOf('`', i);
    if (q >= 0 && q < i) q = text.indexOf('"', i);
  }
  if (!out) return { out: text, segs: oneSeg(text, rootPos), nodes: NO_NODES };
  out.verbatim(cursor, n);
  return out.done();
}

/** `name/arity`: how a definition is named in messages about nesting. */
const keyOf = (d: MacroDef): string => `${d.name}/${d.args.length}`;

/** ` (inside `a/1` → `b/0`)` for a failure inside other macros. */
function via(stack: readonly MacroDef[]): string {
  return stack.length ? ` (inside ${stack.map((d) => `\`${keyOf(d)}\``).join(' → ')})` : '';
}

/** Records a failed call once (the size budget once in all); the call stays as written (no part). */
function fail(st: State, node: ExpNode, code: RawError['code'], message: string): undefined {
  if (code === 'MACRO_TOO_LARGE') {
    if (st.tooLarge) return;
    st.tooLarge = true;
  }
  const key = `${code}@${node.rootPos}@${message}`;
  const seen = (st.seen ??= new Set());
  if (!seen.has(key)) {
    (st.errors ??= []).push({ code, message, pos: node.rootPos });
    seen.add(key);
  }
}

/** Expands the call `node.original` (filling in the node); undefined when the call fails and stays as written. */
function expandCall(node: ExpNode, depth: number, st: State): Part | undefined {
  const call = node.original;
  if (call.length < 2 || call.charCodeAt(call.length - 1) !== 96) return; // the lexer already reported it
  const c = callOf(st.memo, call);
  if (c === null) return fail(st, node, 'MACRO_SYNTAX', `malformed macro call ${call}`);
  const { name, arity, byArity, def } = c;
  const stack = st.stack;
  node.name = name;
  if (!byArity) return fail(st, node, 'UNKNOWN_MACRO', `unknown macro \`${name}\`${via(stack)}`);
  if (!def) {
    const known = [...byArity.keys()].sort((a, b) => a - b).join(' or ');
    return fail(
      st,
      node,
      'MACRO_ARITY',
      `macro \`${name}\` takes ${known} argument(s), called with ${arity}${via(stack)}`,
    );
  }
  // the table holds one definition per name and arity: the same object is the same `name/arity`
  if (stack.includes(def))
    return fail(st, node, 'MACRO_CYCLE', `macro \`${name}\` calls itself: ${[...stack, def].map(keyOf).join(' → ')}`);
  if (depth > MAX_DEPTH)
    return fail(st, node, 'MACRO_DEPTH', `macros nested deeper than ${MAX_DEPTH} at \`${name}\`${via(stack)}`);
  if (++st.calls > MAX_CALLS)
    return fail(st, node, 'MACRO_TOO_LARGE', `more than ${MAX_CALLS} macro calls: expansion stopped at \`${name}\``);
  stack.push(def);
  const part = expandText(c.text, depth + 1, st, node.rootPos);
  stack.pop();
  if (part.out.length > MAX_CHARS)
    return fail(st, node, 'MACRO_TOO_LARGE', `expansion of \`${name}\` exceeds ${MAX_CHARS} characters`);
  node.expansion = part.out;
  node.macros = part.nodes;
  return part;
}
