/** Explains every stored query against one mapping fetch and one read of the macros. */

import { collectRefs, explainDetailed, MappingIndex, type Explanation, type RawMappings } from '../../sml/index.ts';
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
  if (queries.length === 0) return [];
  const macros = await src.macros.macros();
  const patterns = new Set<string>();
  const fields = new Set<string>();
  for (const q of queries) {
    const refs = collectRefs(q.query, macros);
    for (const list of refs.sources) for (const p of list) patterns.add(p);
    for (const f of refs.fields) fields.add(f);
  }
  // the union of what the queries name, in requests under the URL limit: never every mapping of the cluster
  const raw: RawMappings[] = [];
  for (const r of mappingRequests([...patterns], [...fields])) raw.push(...(await src.mappings.mappings([r.patterns], r.fields)));
  const index = new MappingIndex(raw);
  const out: Entry[] = [];
  for (const q of queries) {
    const e = entryOf(q, explainDetailed(q.query, { mappings: index, macros }));
    if (e) out.push(e);
  }
  return out;
}

/** The entry of a query that needs replacement or review; undefined when it needs nothing (shared with the lab's service). */
export function entryOf(q: StoredQuery, d: { explanation: Explanation; insertions: number[] }): Entry | undefined {
  const { explanation, insertions } = d;
  const manual = explanation.errors.length > 0 || explanation.search_fields.some((f) => f.status === 'manual_review');
  return manual || explanation.replacement !== explanation.original ? { q, explanation, insertions, manual } : undefined;
}
