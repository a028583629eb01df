/** What a query needs from a cluster: its source pattern lists and the field names of its searches. */

import { prepare, type Prepared } from './prepare.ts';
import type { MacroDef } from './types.ts';

export interface QueryRefs {
  /** Distinct pattern lists of the `source` commands, each as written (unquoted). */
  sources: string[][];
  /** Distinct field names of every `search` comparison, in order of appearance. */
  fields: string[];
}

export function collectRefs(query: string, macros: readonly MacroDef[]): QueryRefs {
  return refsOf(prepare(query, macros));
}

/** The references of a query already through the front end. */
export function refsOf(p: Prepared): QueryRefs {
  const sources = new Map<string, string[]>();
  const fields = new Set<string>();
  for (const c of p.pipeline.commands) {
    if (c.kind === 'source' && c.patterns.length) {
      const list = c.patterns.map((x) => x.value);
      sources.set(list.join('\u0000'), list);
    }
    for (const cmp of c.comparisons) fields.add(cmp.field);
  }
  return { sources: [...sources.values()], fields: [...fields] };
}
