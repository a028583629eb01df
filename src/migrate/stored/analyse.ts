/** Explains every stored query against one mapping fetch and one read of the macros. */

import {
  explainPrepared,
  MappingIndex,
  needsWork,
  prepare,
  type Explanation,
  type MacroDef,
  type Prepared,
  type RawMappings,
} from '../../sml/index.ts';
import { mappingRequests } from './mapfetch.ts';
import type { ExplainSources } from '../explain.ts';
import type { StoredQuery } from './extract.ts';

export interface Entry {
  q: StoredQuery;
  explanation: Explanation;
  /** Offsets in the original where `text ` was inserted. */
  insertions: number[];
  /** A person must rewrite it (a field from a macro, or errors): never rewritten by --apply. */
  manual: boolean;
}

/**
 * Analyses stored queries page by page: macros read once, mappings fetched only for the patterns and
 * fields a page brings that earlier pages did not (the union of what the queries name, in requests under
 * the URL limit: never every mapping of the cluster).
 */
export class PageAnalyser {
  private macros?: MacroDef[];
  private readonly raw: RawMappings[] = [];
  private index = new MappingIndex([]);
  private readonly patterns = new Set<string>();
  private readonly fields = new Set<string>();

  private readonly src: ExplainSources;
  constructor(src: ExplainSources) {
    this.src = src;
  }

  async page(queries: readonly StoredQuery[]): Promise<Entry[]> {
    if (queries.length === 0) return [];
    const macros = (this.macros ??= await this.src.macros.macros());
    const newP = new Set<string>();
    const newF = new Set<string>();
    // Each query goes through the front end once. While the page has named nothing new, the mappings
    // cannot change, so the query is decided at once and its front-end result dropped (no page-long
    // garbage); from the first new pattern or field on, the rest wait for the mapping fetch.
    let out: Entry[] = [];
    let held: Prepared[] | undefined;
    let from = queries.length;
    for (let i = 0; i < queries.length; i++) {
      const p = prepare(queries[i].query, macros);
      this.collect(p, newP, newF);
      if (held) held.push(p);
      else if (newP.size === 0 && newF.size === 0) this.decide(queries[i], p, out);
      else {
        held = [p];
        from = i;
      }
    }
    // new patterns with every field, and the known patterns with the new fields: every pair asked once
    const requests = [
      ...mappingRequests([...newP], [...this.fields, ...newF]),
      ...(newF.size ? mappingRequests([...this.patterns], [...newF]) : []),
    ];
    for (const r of requests) this.raw.push(...(await this.src.mappings.mappings([r.patterns], r.fields)));
    for (const p of newP) this.patterns.add(p);
    for (const f of newF) this.fields.add(f);
    if (requests.length) {
      this.index = new MappingIndex(this.raw);
      // the queries decided before the fetch are decided again against the new mappings
      out = [];
      for (let i = 0; i < from; i++) this.decide(queries[i], prepare(queries[i].query, macros), out);
    }
    if (held) for (let i = from; i < queries.length; i++) this.decide(queries[i], held[i - from], out);
    return out;
  }

  /** What the query names (as refsOf() lists it, in the same order) that no earlier page asked for. */
  private collect(p: Prepared, newP: Set<string>, newF: Set<string>): void {
    for (const c of p.pipeline.commands) {
      if (c.kind === 'source') for (const x of c.patterns) if (!this.patterns.has(x.value)) newP.add(x.value);
      for (const cmp of c.comparisons) if (!this.fields.has(cmp.field)) newF.add(cmp.field);
    }
  }

  /** Appends the query's entry when it needs work; most stored queries need nothing and get no explanation. */
  private decide(q: StoredQuery, p: Prepared, out: Entry[]): void {
    if (!needsWork(p, this.index)) return;
    const e = entryOf(q, explainPrepared(p, this.index));
    if (e) out.push(e);
  }
}

/** The entry of a query that needs replacement or review; undefined when it needs nothing (shared with the lab's service). */
export function entryOf(q: StoredQuery, d: { explanation: Explanation; insertions: number[] }): Entry | undefined {
  const { explanation, insertions } = d;
  const manual = explanation.errors.length > 0 || explanation.search_fields.some((f) => f.status === 'manual_review');
  return manual || explanation.replacement !== explanation.original
    ? { q, explanation, insertions, manual }
    : undefined;
}
