/** Index aliases: a name that stands for one or more indices, as scenarios declare them. */
import { badRequest } from './errors.ts';
import type { IndexRecord } from './records.ts';

export function aliasTable(recs: Iterable<IndexRecord>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const r of recs) for (const a of r.aliases ?? []) (out[a] ??= []).push(r.name);
  for (const a of Object.keys(out)) out[a].sort();
  return out;
}

/** The index a document API acts on: the name itself, or the one index its alias points to. */
export function concreteName(name: string, table: Record<string, string[]>, write: boolean): string {
  const targets = table[name];
  if (!targets) return name;
  if (targets.length === 1) return targets[0];
  // the engine's words for an alias over several indices without a write index
  throw badRequest(
    write
      ? `no write index is defined for alias [${name}]. The write index may be explicitly disabled using is_write_index=false or the alias points to multiple indices without one being designated as a write index`
      : `alias [${name}] has more than one index associated with it [[${targets.join(', ')}]], can't execute a single index op`,
  );
}
