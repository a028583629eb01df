/** Explains every stored query against one mapping fetch and one read of the macros. */

import {
  explainPrepared,
  MappingIndex,
  prepare,
  refsOf,
  type Explanation,
  type MacroDef,
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

/** Only the queries that need replacement or review (seed §4.1 rule 1), in input order. */
export async function analyse(queries: readonly StoredQuery[], src: ExplainSources): Promise<Entry[]> {
  return new PageAnalyser(src).page(queries);
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

  constructor(private readonly src: ExplainSources) {}

  async page(queries: readonly StoredQuery[]): Promise<Entry[]> {
    if (queries.length === 0) return [];
    const macros = (this.macros ??= await this.src.macros.macros());
    const newP = new Set<string>();
    const newF = new Set<string>();
    // each query through the front end once: read for what it names, then explained
    const prepared = queries.map((q) => prepare(q.query, macros));
    for (const p of prepared) {
      const refs = refsOf(p);
      for (const list of refs.sources) for (const p of list) if (!this.patterns.has(p)) newP.add(p);
      for (const f of refs.fields) if (!this.fields.has(f)) newF.add(f);
    }
    // new patterns with every field, and the known patterns with the new fields: every pair asked once
    const requests = [
      ...mappingRequests([...newP], [...this.fields, ...newF]),
      ...(newF.size ? mappingRequests([...this.patterns], [...newF]) : []),
    ];
    for (const r of requests) this.raw.push(...(await this.src.mappings.mappings([r.patterns], r.fields)));
    for (const p of newP) this.patterns.add(p);
    for (const f of newF) this.fields.add(f);
    if (requests.length) this.index = new MappingIndex(this.raw);
    const out: Entry[] = [];
    for (let i = 0; i < queries.length; i++) {
      const e = entryOf(queries[i], explainPrepared(prepared[i], this.index));
      if (e) out.push(e);
    }
    return out;
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
