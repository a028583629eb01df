import { badRequest } from './errors.ts';
import { valuesAt, type Candidate } from './query.ts';

export interface SortKey {
  field: string;
  desc: boolean;
}

type SortValue = string | number | boolean | null;

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** `"f"`, `"f:desc"` (query string), `{"f":"desc"}`, `{"f":{"order":"desc"}}`, or an array of those. */
export function parseSort(spec: unknown): SortKey[] {
  if (spec === undefined || spec === null) return [];
  const list = Array.isArray(spec) ? spec : typeof spec === 'string' ? spec.split(',') : [spec];
  return list.flatMap((s): SortKey[] => {
    if (typeof s === 'string') {
      const [field, dir] = s.split(':');
      return [{ field, desc: dir === 'desc' || (dir === undefined && field === '_score') }];
    }
    if (isObject(s)) {
      return Object.entries(s).map(([field, o]) => {
        const order = typeof o === 'string' ? o : isObject(o) ? o.order : undefined;
        if (order !== undefined && order !== 'asc' && order !== 'desc')
          throw badRequest(`Unknown SortOrder [${String(order)}]`);
        return { field, desc: order === 'desc' || (order === undefined && field === '_score') };
      });
    }
    throw badRequest('malformed sort format');
  });
}

/** The `_doc`/`_shard_doc` value: index position then insertion order, unique per document. */
const docValue = (candidate: Candidate) => candidate.indexPos * 2 ** 32 + candidate.order;

export function sortValue(candidate: Candidate, key: SortKey): SortValue {
  if (key.field === '_doc' || key.field === '_shard_doc') return docValue(candidate);
  if (key.field === '_score') return 1;
  const vals = valuesAt(candidate, key.field).filter(
    (v): v is string | number | boolean => v !== null && typeof v !== 'object',
  );
  if (vals.length === 0) return null;
  return [...vals].sort(cmp)[key.desc ? vals.length - 1 : 0];
}

function cmp(a: SortValue, b: SortValue): number {
  if (a === b) return 0;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

/** Compares sort tuples; missing values sort last in either direction, as `_last` does. */
export function compareTuples(a: SortValue[], b: SortValue[], keys: SortKey[]): number {
  for (let i = 0; i < keys.length; i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    const c = cmp(x, y);
    if (c !== 0) return keys[i].desc ? -c : c;
  }
  return 0;
}

export interface Sorted {
  c: Candidate;
  values: SortValue[];
}

/** Sorts candidates (ties broken by `_doc` order) and drops those not after `searchAfter`. */
export function sortCandidates(cands: Candidate[], keys: SortKey[], searchAfter?: unknown[]): Sorted[] {
  const rows = cands.map((c) => ({ c, values: keys.map((k) => sortValue(c, k)) }));
  rows.sort((a, b) => compareTuples(a.values, b.values, keys) || docValue(a.c) - docValue(b.c));
  if (!searchAfter) return rows;
  if (searchAfter.length !== keys.length) {
    throw badRequest(`search_after has ${searchAfter.length} value(s) but sort has ${keys.length}.`);
  }
  return rows.filter((r) => compareTuples(r.values, searchAfter as SortValue[], keys) > 0);
}
