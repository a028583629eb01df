/** Mappings in both of OpenSearch's answers (GET /<index>/_mapping: a properties tree; GET /<index>/_mapping/field/<f>:
 * entries with full_name), flattened to dotted full names per index. */

import { compilePattern, matchIndices, splitPatterns } from './patterns.ts';
import type { RawMappings } from './types.ts';

export interface FieldMapping {
  type: string;
  /** `fields.keyword` exists and is of type keyword. */
  keywordSub: boolean;
}

export interface FieldResolution {
  /** Distinct mapped types, sorted and joined by `,`; '' when unmapped. */
  type: string;
  /** In at least one index: text with a keyword sub-field. */
  needsTextOp: boolean;
  anyText: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Field maps by index, with caches per pattern list and per (indices, field). */
export class MappingIndex {
  readonly indices: string[];
  private readonly byIndex = new Map<string, Map<string, FieldMapping>>();
  private readonly patternCache = new Map<string, string[]>();
  private readonly fieldCache = new Map<string, FieldResolution>();
  /** Per list returned by match() (frozen, so its identity stands for its content): field → resolution. */
  private readonly byList = new WeakMap<readonly string[], Map<string, FieldResolution>>();
  /** The last list asked about and its map: a query's comparisons mostly share one list. */
  private lastList: readonly string[] | undefined;
  private lastMap: Map<string, FieldResolution> | undefined;

  constructor(sources: readonly RawMappings[]) {
    for (const raw of sources) {
      if (!isObj(raw)) continue;
      for (const [index, entry] of Object.entries(raw)) {
        let fields = this.byIndex.get(index);
        if (!fields) this.byIndex.set(index, (fields = new Map()));
        if (isObj(entry)) addMappings(fields, entry.mappings);
      }
    }
    this.indices = [...this.byIndex.keys()];
  }

  /** Indices matched by `source` pattern values (cached by the list). */
  match(values: readonly string[]): string[] {
    const key = values.length === 1 ? values[0] : values.join('\u0000');
    let hit = this.patternCache.get(key);
    if (!hit) {
      hit = Object.freeze(matchIndices(splitPatterns(values).map(compilePattern), this.indices)) as string[];
      this.patternCache.set(key, hit);
      this.byList.set(hit, new Map());
    }
    return hit;
  }

  resolve(indices: readonly string[], field: string): FieldResolution {
    let mine = this.lastMap;
    if (indices !== this.lastList) {
      mine = this.byList.get(indices);
      this.lastList = indices;
      this.lastMap = mine;
    }
    let r = mine?.get(field);
    if (r) return r;
    r = this.resolveKeyed(indices, field);
    mine?.set(field, r);
    return r;
  }

  private resolveKeyed(indices: readonly string[], field: string): FieldResolution {
    const key = `${indices.join(',')}\u0000${field}`;
    let r = this.fieldCache.get(key);
    if (r) return r;
    const types = new Set<string>();
    let needsTextOp = false;
    let anyText = false;
    for (const index of indices) {
      const m = this.byIndex.get(index)?.get(field);
      if (!m) continue;
      types.add(m.type);
      if (m.type === 'text') {
        anyText = true;
        if (m.keywordSub) needsTextOp = true;
      }
    }
    r = { type: [...types].sort().join(','), needsTextOp, anyText };
    this.fieldCache.set(key, r);
    return r;
  }
}

function leaf(m: Obj): FieldMapping {
  const type = typeof m.type === 'string' ? m.type : isObj(m.properties) ? 'object' : 'object';
  const kw = isObj(m.fields) ? m.fields.keyword : undefined;
  return { type, keywordSub: isObj(kw) && kw.type === 'keyword' };
}

/** `mappings` of one index: the field-mapping shape (entries with full_name) or the properties tree. */
function addMappings(out: Map<string, FieldMapping>, mappings: unknown): void {
  if (!isObj(mappings)) return;
  const entries = Object.values(mappings);
  const fieldShape =
    entries.length > 0 && entries.every((e) => isObj(e) && typeof e.full_name === 'string' && isObj(e.mapping));
  if (fieldShape) {
    for (const [requested, e] of Object.entries(mappings) as Array<[string, Obj]>) {
      const full = e.full_name as string;
      const inner = e.mapping as Obj;
      const short = full.slice(full.lastIndexOf('.') + 1);
      const m = isObj(inner[short]) ? (inner[short] as Obj) : (Object.values(inner).find(isObj) as Obj | undefined);
      if (!m) continue;
      const fm = leaf(m);
      out.set(full, fm);
      if (requested !== full && !out.has(requested)) out.set(requested, fm);
    }
    return;
  }
  if (isObj(mappings.properties)) return addProperties(out, mappings.properties, '');
  // legacy typed mappings: { <type>: { properties } }
  for (const v of entries) if (isObj(v) && isObj(v.properties)) addProperties(out, v.properties, '');
}

function addProperties(out: Map<string, FieldMapping>, props: Obj, prefix: string): void {
  for (const [name, v] of Object.entries(props)) {
    if (!isObj(v)) continue;
    const full = prefix + name;
    out.set(full, leaf(v));
    if (isObj(v.properties)) addProperties(out, v.properties, `${full}.`);
    if (isObj(v.fields)) {
      for (const [sub, sm] of Object.entries(v.fields)) if (isObj(sm)) out.set(`${full}.${sub}`, leaf(sm));
    }
  }
}
