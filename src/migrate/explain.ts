/** `migrate explain`: gather the query, macros and mappings (files or cluster), explain, render, exit code. */

import { EXIT } from '../base/errors.ts';
import { explainDetailed, collectRefs, type Explanation, type MacroDef, type RawMappings } from '../sml/index.ts';
import type { MacrosProvider, MappingsProvider } from './providers.ts';

export interface ExplainSources {
  macros: MacrosProvider;
  mappings: MappingsProvider;
}

/** Macros first (they may bring fields and sources), then the mappings of what the query names. */
export async function explainWith(
  query: string,
  src: ExplainSources,
): Promise<{ explanation: Explanation; insertions: number[] }> {
  const macros: MacroDef[] = await src.macros.macros();
  const refs = collectRefs(query, macros);
  const mappings: RawMappings[] = await src.mappings.mappings(refs.sources, refs.fields);
  return explainDetailed(query, { mappings, macros });
}

/**
 * 1 when the query needs migration: a replacement, a field to review by hand, or errors
 * (a query with errors cannot be confirmed safe); else 0.
 */
export function exitCodeOf(e: Explanation): typeof EXIT.ok | typeof EXIT.findings {
  if (e.replacement !== e.original || e.errors.length > 0) return EXIT.findings;
  return e.search_fields.some((f) => f.status === 'manual_review') ? EXIT.findings : EXIT.ok;
}
