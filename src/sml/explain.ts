/** explain(): the explanation structure the vendor's single-query check answers, for one query. Pure; never throws on any input string. */

import type { RawError, SmlError } from './errors.ts';
import type { ExpNode, Seg } from './macros.ts';
import { MappingIndex, type FieldResolution } from './mappings.ts';
import type { Command, Comparison, Pattern } from './parser.ts';
import { prepare, type Prepared } from './prepare.ts';
import { fieldOf } from './status.ts';
import type { Explanation, FieldObject, MacroDef, MacroNode, RawMappings } from './types.ts';

/** Raw responses (one or several, merged by index) or an index built once and reused. */
export type MappingsSource = RawMappings | readonly RawMappings[] | MappingIndex;

export interface ExplainContext {
  mappings: MappingsSource;
  macros: readonly MacroDef[];
}

const indexCache = new WeakMap<object, MappingIndex>();

/** Built once per mappings object, so a batch of queries shares the compiled index. */
function indexOf(m: MappingsSource): MappingIndex {
  if (m instanceof MappingIndex) return m;
  let index = indexCache.get(m);
  if (!index) {
    index = new MappingIndex(Array.isArray(m) ? (m as RawMappings[]) : [m as RawMappings]);
    indexCache.set(m, index);
  }
  return index;
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
export function explainDetailed(
  query: string,
  ctx: ExplainContext,
): { explanation: Explanation; insertions: number[] } {
  return explainPrepared(prepare(query, ctx.macros), ctx.mappings);
}

const UNRESOLVED: FieldResolution = { type: '', needsTextOp: false, anyText: false };

/** explainDetailed() of a query already through the front end (prepare()); `p` is not changed. */
export function explainPrepared(
  p: Prepared,
  mappings: MappingsSource,
): { explanation: Explanation; insertions: number[] } {
  const index = indexOf(mappings);
  const { original, exp, expErrors, pipeline } = p;
  const { expansion, segs } = exp;
  const olen = original.length;

  // most queries have no error: the list is made when the first one comes
  let errors: RawError[] | undefined = exp.errors.length ? exp.errors.slice() : undefined;
  for (const e of expErrors)
    (errors ??= []).push({ code: e.code, message: e.message, pos: toOriginal(segs, e.pos, olen) });

  let nodeFields: Map<ExpNode, FieldObject[]> | undefined;
  const fields: FieldObject[] = [];
  let inserts: number[] | undefined;
  const commands = pipeline.commands;
  // the source of the previous search: its patterns' text and matched indices, read again by later searches
  let lastSrc: Command | undefined;
  let source: string | undefined;
  let indices: string[] | undefined;
  for (const cmd of commands) {
    if (cmd.kind !== 'search') continue;
    const src = sourceFor(cmd, commands);
    if (src !== lastSrc || src === undefined) {
      lastSrc = src;
      source = undefined;
      indices = undefined;
      if (!src)
        (errors ??= []).push({
          code: 'NO_SOURCE',
          message: 'search needs a source command to resolve its fields',
          pos: toOriginal(segs, cmd.start, olen),
        });
      else {
        const values = patternValues(src.patterns);
        source = values.length === 1 ? values[0] : values.join(', ');
        if (values.length) indices = index.match(values);
      }
    }
    if (src && indices && indices.length === 0) {
      const pos = toOriginal(segs, src.patterns[0].start, olen);
      if (!errors || !hasError(errors, 'NO_INDEX_MATCH', pos))
        (errors ??= []).push({
          code: 'NO_INDEX_MATCH',
          message: `source ${source} matches no index of the mappings`,
          pos,
        });
    }
    if (cmd.comparisons.length === 0) continue;
    // doubt: an error inside this command's span (or a cut-off quote after it) blocks rewriting
    const doubt = errorWithin(expErrors, cmd.start, cmd.end) || inErrors(exp.errors, segs, cmd, olen);
    for (const c of cmd.comparisons) {
      const first = segAt(segs, c.start);
      const node = first ? originNode(segs, first, c) : null;
      const res = indices ? index.resolve(indices, c.field) : UNRESOLVED;
      const f = fieldOf(c, res, node ? node.name : undefined, doubt, source);
      fields.push(f);
      if (node) {
        nodeFields ??= new Map();
        let list = nodeFields.get(node);
        if (!list) nodeFields.set(node, (list = []));
        list.push(f);
      } else if (f.status === 'text_op_added') (inserts ??= []).push(first ? first.orig + c.start - first.start : -1);
    }
  }

  const insertions = inserts ? sortedUnique(inserts) : [];
  const nodes = exp.nodes;
  const macros: MacroNode[] = [];
  for (let k = 0; k < nodes.length; k++) macros.push(publicNode(nodes[k], nodeFields));
  const explanation: Explanation = {
    original,
    expansion,
    macros,
    replacement: insertions.length ? insertTextOps(original, insertions) : original,
    errors: errors ? finishErrors(errors) : [],
    search_fields: fields,
  };
  return { explanation, insertions };
}

function patternValues(patterns: readonly Pattern[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < patterns.length; k++) out.push(patterns[k].value);
  return out;
}

function hasError(errs: readonly RawError[], code: RawError['code'], pos: number): boolean {
  for (let k = 0; k < errs.length; k++) if (errs[k].code === code && errs[k].pos === pos) return true;
  return false;
}

/** An error at an offset within [from, to]. */
function errorWithin(errs: readonly RawError[], from: number, to: number): boolean {
  for (let k = 0; k < errs.length; k++) if (errs[k].pos >= from && errs[k].pos <= to) return true;
  return false;
}

/** Front-end errors (offsets in `original`) within the command's span, mapped to `original`. */
function inErrors(errs: readonly RawError[], segs: readonly Seg[], cmd: Command, olen: number): boolean {
  if (errs.length === 0) return false;
  const oStart = toOriginal(segs, cmd.start, olen);
  const oEnd = toOriginal(segs, Math.max(cmd.start, cmd.end - 1), olen);
  return errorWithin(errs, oStart, oEnd);
}

/** Ascending without repeats; `xs` is returned itself when it already is (fields come in text order). */
function sortedUnique(xs: number[]): number[] {
  let ordered = true;
  for (let k = 1; k < xs.length && ordered; k++) ordered = xs[k - 1] < xs[k];
  if (ordered) return xs;
  const s = xs.slice().sort((a, b) => a - b);
  const out: number[] = [];
  for (const x of s) if (out.length === 0 || out[out.length - 1] !== x) out.push(x);
  return out;
}

/** The nearest `source` before the command, else the first one of the pipeline. */
export function sourceFor(cmd: Command, all: readonly Command[]): Command | undefined {
  let best: Command | undefined;
  for (const c of all) {
    if (c === cmd) break;
    if (c.kind === 'source') best = c;
  }
  return best ?? all.find((c) => c.kind === 'source');
}

/** The macro a field name came from (null: wholly copied from `original`); `first` is the segment of its start. */
function originNode(segs: readonly Seg[], first: Seg, c: Comparison): ExpNode | null {
  if (first.node || c.end <= first.end) return first.node;
  // a name spliced from original text and a macro's: the macro's part makes it shared
  return segAt(segs, c.end - 1)?.node ?? first.node;
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

function publicNode(n: ExpNode, fields: Map<ExpNode, FieldObject[]> | undefined): MacroNode {
  return {
    expansion_position: n.expansion_position,
    original: n.original,
    expansion: n.expansion,
    name: n.name,
    macros: n.macros.map((c) => publicNode(c, fields)),
    search_fields: fields?.get(n) ?? [],
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
