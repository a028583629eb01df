/** explain(): the explanation structure of SML.md §4 for one query. Pure; never throws on any input string. */

import type { RawError, SmlError } from './errors.ts';
import { lex } from './lexer.ts';
import { expand, macroTable, type ExpNode, type MacroTable, type Seg } from './macros.ts';
import { MappingIndex } from './mappings.ts';
import { parse, type Command, type Comparison } from './parser.ts';
import { fieldObject } from './status.ts';
import type { Explanation, FieldObject, MacroDef, MacroNode, RawMappings } from './types.ts';

/** Raw responses (one or several, merged by index) or an index built once and reused. */
export type MappingsSource = RawMappings | readonly RawMappings[] | MappingIndex;

export interface ExplainContext {
  mappings: MappingsSource;
  macros: readonly MacroDef[];
}

const indexCache = new WeakMap<object, MappingIndex>();
const macroCache = new WeakMap<object, MacroTable>();

/** Built once per mappings/macros object, so a batch of queries shares the compiled index and table. */
function compiled(ctx: ExplainContext): { index: MappingIndex; table: MacroTable } {
  const m = ctx.mappings;
  let index = m instanceof MappingIndex ? m : indexCache.get(m);
  if (!index) {
    index = new MappingIndex(Array.isArray(m) ? (m as RawMappings[]) : [m as RawMappings]);
    indexCache.set(m, index);
  }
  let table = macroCache.get(ctx.macros);
  if (!table) macroCache.set(ctx.macros, (table = macroTable(ctx.macros)));
  return { index, table };
}

/** Position map: expansion offset → the segment that produced it (binary search). */
function segAt(segs: readonly Seg[], pos: number): Seg | undefined {
  let lo = 0;
  let hi = segs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const s = segs[mid];
    if (pos < s.start) hi = mid - 1;
    else if (pos >= s.end) lo = mid + 1;
    else return s;
  }
  return undefined;
}

/** Offset in `original` of an expansion offset: exact for copied text, the first-level call for macro text. */
export function toOriginal(segs: readonly Seg[], pos: number, originalLength: number): number {
  const s = segAt(segs, pos) ?? (pos > 0 ? segAt(segs, pos - 1) : undefined);
  if (!s) return Math.min(pos, originalLength);
  return s.node ? s.orig : Math.min(s.orig + (Math.min(pos, s.end) - s.start), originalLength);
}

export function explain(query: string, ctx: ExplainContext): Explanation {
  return explainDetailed(query, ctx).explanation;
}

/** explain() plus the offsets in `original` where `text ` was inserted (for renderers). */
export function explainDetailed(query: string, ctx: ExplainContext): { explanation: Explanation; insertions: number[] } {
  const original = typeof query === 'string' ? query : String(query);
  const { index, table } = compiled(ctx);
  const exp = expand(original, table);
  const { expansion, segs } = exp;
  const lexed = lex(expansion);
  const pipeline = parse(expansion, lexed.tokens);
  const mapPos = (p: number) => toOriginal(segs, p, original.length);

  const errors: RawError[] = [...exp.errors];
  const expErrors = [...lexed.errors, ...pipeline.errors];
  for (const e of expErrors) errors.push({ ...e, pos: mapPos(e.pos) });

  const nodeFields = new Map<ExpNode, FieldObject[]>();
  const fields: FieldObject[] = [];
  const inserts: number[] = [];
  const sources = pipeline.commands.filter((c) => c.kind === 'source');
  for (const cmd of pipeline.commands) {
    if (cmd.kind !== 'search') continue;
    const src = sourceFor(cmd, pipeline.commands, sources);
    let indices: string[] | undefined;
    if (!src) errors.push({ code: 'NO_SOURCE', message: 'search needs a source command to resolve its fields', pos: mapPos(cmd.start) });
    else if (src.patterns.length) {
      indices = index.match(src.patterns.map((p) => p.value));
      if (indices.length === 0) {
        const pos = mapPos(src.patterns[0].start);
        const msg = `source ${src.patterns.map((p) => p.value).join(', ')} matches no index of the mappings`;
        if (!errors.some((e) => e.code === 'NO_INDEX_MATCH' && e.pos === pos)) errors.push({ code: 'NO_INDEX_MATCH', message: msg, pos });
      }
    }
    // doubt: an error inside this command's span (or a cut-off quote after it) blocks rewriting
    const oStart = mapPos(cmd.start);
    const oEnd = mapPos(Math.max(cmd.start, cmd.end - 1));
    const doubt = expErrors.some((e) => e.pos >= cmd.start && e.pos <= cmd.end) || exp.errors.some((e) => e.pos >= oStart && e.pos <= oEnd);
    for (const c of cmd.comparisons) {
      const origin = originOf(segs, c);
      const res = indices ? index.resolve(indices, c.field) : { type: '', needsTextOp: false, anyText: false };
      const f = fieldObject(c, res, { macro: origin.node?.name ?? (origin.node ? '' : undefined), doubt, source: src?.patterns.map((p) => p.value).join(', ') });
      fields.push(f);
      if (origin.node) {
        let list = nodeFields.get(origin.node);
        if (!list) nodeFields.set(origin.node, (list = []));
        list.push(f);
      } else if (f.status === 'text_op_added') inserts.push(origin.orig);
    }
  }

  const insertions = [...new Set(inserts)].sort((a, b) => a - b);
  const explanation: Explanation = {
    original,
    expansion,
    macros: exp.nodes.map((n) => publicNode(n, nodeFields)),
    replacement: insertTextOps(original, insertions),
    errors: finishErrors(errors),
    search_fields: fields,
  };
  return { explanation, insertions };
}

/** The nearest `source` before the command, else the first one of the pipeline. */
function sourceFor(cmd: Command, all: readonly Command[], sources: readonly Command[]): Command | undefined {
  let best: Command | undefined;
  for (const c of all) {
    if (c === cmd) break;
    if (c.kind === 'source') best = c;
  }
  return best ?? sources[0];
}

/** Where the field name came from: wholly copied from `original` (node null) or from a macro. */
function originOf(segs: readonly Seg[], c: Comparison): { node: ExpNode | null; orig: number } {
  const first = segAt(segs, c.start);
  if (!first) return { node: null, orig: -1 };
  if (first.node || c.end <= first.end) return { node: first.node, orig: first.orig + (first.node ? 0 : c.start - first.start) };
  // a name spliced from original text and a macro's: the macro's part makes it shared
  return { node: segAt(segs, c.end - 1)?.node ?? first.node, orig: first.orig + c.start - first.start };
}

function insertTextOps(original: string, at: number[]): string {
  let out = '';
  let from = 0;
  for (const p of at) {
    out += `${original.slice(from, p)}text `;
    from = p;
  }
  return out + original.slice(from);
}

function publicNode(n: ExpNode, fields: Map<ExpNode, FieldObject[]>): MacroNode {
  return {
    expansion_position: n.expansion_position,
    original: n.original,
    expansion: n.expansion,
    name: n.name,
    macros: n.macros.map((c) => publicNode(c, fields)),
    search_fields: fields.get(n) ?? [],
  };
}

function finishErrors(raw: RawError[]): SmlError[] {
  const seen = new Set<string>();
  const out: SmlError[] = [];
  for (const e of raw.sort((a, b) => a.pos - b.pos)) {
    const key = `${e.code}@${e.pos}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ code: e.code, message: e.message, position: e.pos });
  }
  return out;
}
