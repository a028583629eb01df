/**
 * A macro call's text resolved against the definitions: the table by name and arity, the call's name and
 * arguments, and the definition with the arguments substituted. Pure functions of the call's text, so the
 * result is remembered per table (stored queries call the same few macros again and again).
 */

import { stringEnd } from './lexer.ts';
import type { MacroDef } from './types.ts';

// a module-local copy: a loader may turn imported bindings into getters, read on every call
const strEnd = stringEnd;

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

/** White space as regular expressions' `\s` and String#trim see it. */
function isJsSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** A macro name: no white space, parenthesis, comma or quote (as `^[^\s(),"]+$`). */
function isMacroName(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 40 || c === 41 || c === 44 || c === 34 || isJsSpace(c)) return false;
  }
  return true;
}

/** Splits `name(a, "b,c", f(x))` into name and trimmed top-level arguments; null when malformed. */
export function parseCall(inner: string): { name: string; args: string[] } | null {
  const open = inner.indexOf('(');
  if (open < 0) {
    const name = inner.trim();
    return isMacroName(name) ? { name, args: [] } : null;
  }
  const name = inner.slice(0, open).trim();
  let close = inner.length - 1;
  while (close >= 0 && isJsSpace(inner.charCodeAt(close))) close--;
  if (!isMacroName(name) || inner.charCodeAt(close) !== 41) return null;
  const args: string[] = [];
  let depth = 0;
  let from = open + 1;
  for (let i = open + 1; i < close; i++) {
    const c = inner.charCodeAt(i);
    if (c === 34) {
      const e = strEnd(inner, i);
      if (e < 0 || e > close) return null;
      i = e - 1;
    } else if (c === 40 || c === 91) depth++;
    else if (c === 41 || c === 93) {
      if (--depth < 0) return null;
    } else if (c === 44 && depth === 0) {
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

/** A call's text resolved against a table: parsing, lookup and substitution depend on nothing else. */
export interface Call {
  name: string;
  arity: number;
  byArity: Map<number, MacroDef> | undefined;
  def: MacroDef | undefined;
  /** The definition with the arguments substituted ('' without a definition). */
  text: string;
  /** The definition text and arguments it was made from: a definition changed in place is substituted again. */
  from: string | undefined;
  fromArgs: readonly string[] | undefined;
}

/** A table and the calls already resolved in it: stored queries call the same few macros again and again. */
export interface CallMemo {
  readonly table: MacroTable;
  readonly calls: Map<string, Call | null>;
}
const memos = new WeakMap<MacroTable, CallMemo>();
const MAX_MEMO = 4096;
/** Longer calls are resolved each time: the memo holds only small texts. */
const MAX_MEMO_CALL = 256;

/** The memo of a table's calls: looked up once per query, then passed to callOf(). */
export function callMemo(table: MacroTable): CallMemo {
  let memo = memos.get(table);
  if (!memo) memos.set(table, (memo = { table, calls: new Map() }));
  return memo;
}

/** The call `\`…\`` resolved in the memo's table; null when malformed. */
export function callOf(memo: CallMemo, call: string): Call | null {
  const hit = memo.calls.get(call);
  if (hit !== undefined && (hit === null || (hit.from === hit.def?.definition && hit.fromArgs === hit.def?.args)))
    return hit;
  const parsed = parseCall(call.slice(1, -1));
  let c: Call | null = null;
  if (parsed) {
    const byArity = memo.table.get(parsed.name);
    const def = byArity?.get(parsed.args.length);
    const text = def ? substitute(def, parsed.args) : '';
    c = {
      name: parsed.name,
      arity: parsed.args.length,
      byArity,
      def,
      text,
      from: def?.definition,
      fromArgs: def?.args,
    };
  }
  if (call.length > MAX_MEMO_CALL) return c;
  if (memo.calls.size >= MAX_MEMO) memo.calls.clear(); // bounded: a corpus of distinct arguments does not grow it
  memo.calls.set(call, c);
  return c;
}
