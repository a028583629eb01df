/** Mapping requests for a batch of queries: only the `source` patterns used, each request under the URL limit. */

import { pathPart } from '../providers.ts';

/** The engine's default limit of an HTTP request line (http.max_initial_line_length). */
export const URL_LIMIT = 4096;
/** `GET `, ` HTTP/1.1`, `?ignore_unavailable=true` and headroom. */
const OVERHEAD = 64;
const TAIL = '/_mapping/field/'.length;

export interface MappingRequest {
  patterns: string[];
  fields: string[];
}

const cost = (s: string) => pathPart(s).length + 1; // the name and its comma (or the leading slash)

/** Greedy runs of names whose encoded list stays within the budget; a name longer than the budget goes alone. */
export function chunk(names: readonly string[], budget: number): string[][] {
  const out: string[][] = [];
  let cur: string[] = [];
  let size = 0;
  for (const n of names) {
    const c = cost(n);
    if (cur.length && size + c > budget) {
      out.push(cur);
      cur = [];
      size = 0;
    }
    cur.push(n);
    size += c;
  }
  if (cur.length) out.push(cur);
  return out;
}

/** Every (pattern, field) pair is covered by some request; each request line fits in `limit` bytes when it can. */
export function mappingRequests(
  patterns: readonly string[],
  fields: readonly string[],
  limit = URL_LIMIT,
): MappingRequest[] {
  if (patterns.length === 0) return [];
  const budget = limit - OVERHEAD - TAIL;
  const size = (l: readonly string[]) => l.reduce((n, x) => n + cost(x), 0);
  if (size(patterns) + size(fields) <= budget) return [{ patterns: [...patterns], fields: [...fields] }];
  // split patterns take at most half the line, so the fields keep room too
  const pChunks = chunk(patterns, fields.length ? budget / 2 : budget);
  const out: MappingRequest[] = [];
  for (const ps of pChunks) {
    if (fields.length === 0) {
      out.push({ patterns: ps, fields: [] });
      continue;
    }
    const left = budget - size(ps);
    for (const fs of chunk(fields, Math.max(left, 1))) out.push({ patterns: ps, fields: fs });
  }
  return out;
}
