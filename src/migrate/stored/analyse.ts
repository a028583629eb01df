/** Explains every stored query against one mapping fetch and one read of the macros. */

import { collectRefs, explainDetailed, MappingIndex, type Explanation } from '../../sml/index.ts';
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

/** Above this many characters of names the request asks for every index's whole mapping instead. */
const MAX_PATH = 3500;

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
  // one request for the union: every query then matches its own patterns against the indices it names
  const size = [...patterns, ...fields].reduce((n, s) => n + s.length + 1, 0);
  const raw = patterns.size === 0 ? [] : size > MAX_PATH
    ? await src.mappings.mappings([['_all']], [])
    : await src.mappings.mappings([[...patterns]], [...fields]);
  const index = new MappingIndex(raw);
  const out: Entry[] = [];
  for (const q of queries) {
    const { explanation, insertions } = explainDetailed(q.query, { mappings: index, macros });
    const manual = explanation.errors.length > 0 || explanation.search_fields.some((f) => f.status === 'manual_review');
    if (manual || explanation.replacement !== explanation.original) out.push({ q, explanation, insertions, manual });
  }
  return out;
}
