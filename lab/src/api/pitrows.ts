/**
 * Point-in-time paging at scale: candidates that parse their source on demand, and the sorted rows of
 * a PIT computed once per (query, sort) so each search_after page is a binary search, not a full sort.
 */
import { parseLong } from 'smdoctor';
import type { PackedDoc } from './docmap.ts';
import type { PitCtx } from './contexts.ts';
import type { Candidate } from './query.ts';
import { badRequest } from './errors.ts';
import { compareTuples, type SortKey, type Sorted } from './sort.ts';

export function lazyCandidate(index: string, id: string, doc: PackedDoc, indexPos: number): Candidate {
  return {
    index,
    id,
    seqNo: doc.seqNo,
    primaryTerm: doc.primaryTerm,
    version: doc.version,
    order: doc.order,
    indexPos,
    get source() {
      return parseLong(doc.raw) as Record<string, unknown>;
    },
  };
}

const sortedByPit = new WeakMap<PitCtx, Map<string, Sorted[]>>();

/**
 * The PIT's rows for this query and sort (cached) and the offset of the first row after `searchAfter`:
 * the caller reads its page from there, so no page copies the rest of the index.
 */
export function pitRows(
  pit: PitCtx,
  query: unknown,
  keys: SortKey[],
  compute: () => Sorted[],
  searchAfter?: unknown[],
): { rows: Sorted[]; start: number } {
  let cache = sortedByPit.get(pit);
  if (!cache) sortedByPit.set(pit, (cache = new Map()));
  const key = JSON.stringify([query ?? null, keys]);
  let rows = cache.get(key);
  if (!rows) cache.set(key, (rows = compute()));
  if (!searchAfter) return { rows, start: 0 };
  if (searchAfter.length !== keys.length)
    throw badRequest(`search_after has ${searchAfter.length} value(s) but sort has ${keys.length}.`);
  const after = searchAfter as Parameters<typeof compareTuples>[1];
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareTuples(rows[mid].values, after, keys) > 0) hi = mid;
    else lo = mid + 1;
  }
  return { rows, start: lo };
}
