/** Textual, recursive macro expansion (SML.md §3) with a position map back to the text each piece came from. */

import { MAX_EXPANSION_CHARS, MAX_MACRO_CALLS, MAX_MACRO_DEPTH, type RawError } from './errors.ts';
import { stringEnd } from './lexer.ts';
import type { MacroDef } from './types.ts';

/** A macro call as expanded; turned into the public MacroNode by explain(). */
export interface ExpNode {
  expansion_position: number;
  original: string;
  expansion: string;
  name: string;
  macros: ExpNode[];
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
  segs: Seg[];
  nodes: ExpNode[];
  errors: RawError[];
}

/** Definitions by name, each name with its arities. */
export type MacroTable = Map<string, Map<number, MacroDef>>;

export function macroTable(defs: readonly MacroDef[]): MacroTable {
  const t: MacroTable = new Map();
  for (const d of defs) {
    let byArity = t.get(d.name);
    if (!byArity) t.set(d.name, (byArity = new Map()));
    byArity.set(d.args.length, d);
  }
  return t;
}

/** Splits `name(a, "b,c", f(x))` into name and trimmed top-level arguments; null when malformed. */
export function parseCall(inner: string): { name: string; args: string[] } | null {
  const open = inner.indexOf('(');
  if (open < 0) {
    const name = inner.trim();
    return /^[^\s(),"]+$/.test(name) ? { name, args: [] } : null;
  }
  const name = inner.slice(0, open).trim();
  const close = inner.trimEnd().length - 1;
  if (!/^[^\s(),"]+$/.test(name) || inner[close] !== ')') return null;
  const args: string[] = [];
  let depth = 0;
  let from = open + 1;
  for (let i = open + 1; i < close; i++) {
    const c = inner[i];
    if (c === '"') {
      const e = stringEnd(inner, i);
      if (e < 0 || e > close) return null;
      i = e - 1;
    } else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') {
      if (--depth < 0) return null;
    } else if (c === ',' && depth === 0) {
      args.push(inner.slice(from, i).trim());
      from = i + 1;
    }
  }
  if (depth !== 0) return null;
  const last = inner.slice(from, close).trim();
  if (args.length > 0 || last !== '') args.push(last);
  return { name, args };
}

/** A definition cut at its `$name$` references: literal text, then (argument index, reference as written) pairs. */
interface Template {
  /** What it was cut from: a changed definition is cut again. */
  definition: string;
  args: readonly string[];
  lits: string[];
  refs: Array<[number, string]>;
}
const templates = new WeakMap<MacroDef, Template>();

function templateOf(def: MacroDef): Template {
  let t = templates.get(def);
  if (t && t.definition === def.definition && t.args === def.args) return t;
  t = { definition: def.definition, args: def.args, lits: [], refs: [] };
  let from = 0;
  for (const m of def.definition.matchAll(/\$([^$\s]+)\$/g)) {
    t.lits.push(def.definition.slice(from, m.index));
    t.refs.push([def.args.lastIndexOf(m[1]), m[0]]); // the last argument of a repeated name wins, as in a Map
    from = m.index + m[0].length;
  }
  t.lits.push(def.definition.slice(from));
  templates.set(def, t);
  return t;
}

/** Replaces each `$argName$` in one pass, so argument text is never substituted again. */
export function substitute(def: MacroDef, args: string[]): string {
  if (def.args.length === 0 || !def.definition.includes('$')) return def.definition;
  const t = templateOf(def);
  let out = t.lits[0];
  for (let k = 0; k < t.refs.length; k++) {
    const [at, written] = t.refs[k];
    out += (at >= 0 ? args[at] : undefined) ?? written;
    out += t.lits[k + 1];
  }
  return out;
}

interface State {
  table: MacroTable;
  calls: number;
  errors: RawError[];
  /** The size budget is reported once, not for every call after it. */
  tooLarge: boolean;
  /** The same failing call met many times (e.g. in every branch) is reported once. */
  seen: Set<string>;
}

interface Part {
  out: string;
  segs: Seg[];
  nodes: ExpNode[];
}

export function expand(original: string, table: MacroTable): Expanded {
  if (original.indexOf('`') < 0)
    return {
      expansion: original,
      segs: [{ start: 0, end: original.length, orig: 0, node: null }],
      nodes: [],
      errors: [],
    };
  const st: State = { table, calls: 0, errors: [], tooLarge: false, seen: new Set() };
  const top = expandText(original, 1, [], st, -1);
  return { expansion: top.out, segs: top.segs, nodes: top.nodes, errors: st.errors };
}

/** The pieces of one expanded text, appended in order. */
class Builder implements Part {
  out = '';
  readonly segs: Seg[] = [];
  readonly nodes: ExpNode[] = [];
  private readonly chunks: string[] = [];
  private len = 0;

  constructor(
    private readonly text: string,
    private readonly rootPos: number,
  ) {}

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

  done(): Part {
    this.out = this.chunks.join('');
    return this;
  }
}

/** rootPos < 0: `text` is the original itself; else every piece maps to the first-level call at rootPos. */
function expandText(text: string, depth: number, stack: string[], st: State, rootPos: number): Part {
  if (text.indexOf('`') < 0)
    return {
      out: text,
      segs: [{ start: 0, end: text.length, orig: rootPos < 0 ? 0 : rootPos, node: null }],
      nodes: [],
    };
  const b = new Builder(text, rootPos);
  let cursor = 0;
  const n = text.length;
  // the macro calls as the lexer sees them: a backquote outside a quoted string opens one
  for (let i = 0; i < n;) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const e = stringEnd(text, i);
      i = e < 0 ? n : e;
      continue;
    }
    if (c !== 96) {
      i++;
      continue;
    }
    const start = i;
    const close = text.indexOf('`', i + 1);
    i = close < 0 ? n : close + 1;
    b.verbatim(cursor, start);
    cursor = i;
    const node = expandCall(text.slice(start, i), start, depth, stack, st, rootPos < 0 ? start : rootPos);
    b.nodes.push(node.node);
    if (node.part) b.expanded(node.part, node.node);
    else b.verbatim(start, i);
  }
  b.verbatim(cursor, n);
  return b.done();
}

function expandCall(
  call: string,
  pos: number,
  depth: number,
  stack: string[],
  st: State,
  rootPos: number,
): { node: ExpNode; part?: Part } {
  const node: ExpNode = { expansion_position: pos, original: call, expansion: call, name: '', macros: [], rootPos };
  const fail = (code: RawError['code'], message: string) => {
    if (code === 'MACRO_TOO_LARGE' && st.tooLarge) return { node };
    if (code === 'MACRO_TOO_LARGE') st.tooLarge = true;
    const key = `${code}@${rootPos}@${message}`;
    if (!st.seen.has(key)) st.errors.push({ code, message, pos: rootPos });
    st.seen.add(key);
    return { node };
  };
  if (call.length < 2 || !call.endsWith('`')) return { node }; // the lexer already reported the unclosed backquote
  const parsed = parseCall(call.slice(1, -1));
  if (!parsed) return fail('MACRO_SYNTAX', `malformed macro call ${call}`);
  node.name = parsed.name;
  const via = stack.length ? ` (inside ${stack.map((k) => `\`${k}\``).join(' → ')})` : '';
  const byArity = st.table.get(parsed.name);
  const def = byArity?.get(parsed.args.length);
  if (!byArity) return fail('UNKNOWN_MACRO', `unknown macro \`${parsed.name}\`${via}`);
  if (!def) {
    const known = [...byArity.keys()].sort((a, b) => a - b).join(' or ');
    return fail(
      'MACRO_ARITY',
      `macro \`${parsed.name}\` takes ${known} argument(s), called with ${parsed.args.length}${via}`,
    );
  }
  const key = `${parsed.name}/${parsed.args.length}`;
  if (stack.includes(key))
    return fail('MACRO_CYCLE', `macro \`${parsed.name}\` calls itself: ${[...stack, key].join(' → ')}`);
  if (depth > MAX_MACRO_DEPTH)
    return fail('MACRO_DEPTH', `macros nested deeper than ${MAX_MACRO_DEPTH} at \`${parsed.name}\`${via}`);
  if (++st.calls > MAX_MACRO_CALLS)
    return fail('MACRO_TOO_LARGE', `more than ${MAX_MACRO_CALLS} macro calls: expansion stopped at \`${parsed.name}\``);
  const part = expandText(substitute(def, parsed.args), depth + 1, [...stack, key], st, rootPos);
  if (part.out.length > MAX_EXPANSION_CHARS)
    return fail('MACRO_TOO_LARGE', `expansion of \`${parsed.name}\` exceeds ${MAX_EXPANSION_CHARS} characters`);
  node.expansion = part.out;
  node.macros = part.nodes;
  return { node, part };
}
