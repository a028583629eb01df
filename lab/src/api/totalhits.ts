/** `hits.total` as the engine reports it: counted up to `track_total_hits` (default 10,000), then `relation: gte`. */
import { badRequest } from './errors.ts';
import { flag, type Query } from './http.ts';

/** The engine's default: totals are exact only up to this many hits. */
export const DEFAULT_TRACK_TOTAL_HITS = 10_000;
const ACCURATE = -1;

/** `upTo`: -1 counts every hit, 0 (`false`) leaves `hits.total` out; `asInt`: the pre-7.0 integer form. */
export interface TotalHits {
  upTo: number;
  asInt: boolean;
}

function parseTrack(v: unknown): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (v === true || v === 'true') return ACCURATE;
  if (v === false || v === 'false') return 0;
  const n = Number(v);
  if (!Number.isInteger(n)) throw badRequest(`[track_total_hits] must be a boolean or an integer, got [${String(v)}]`);
  return n;
}

/** From the body's or the query's `track_total_hits` and `rest_total_hits_as_int`; a scroll counts every hit unless told (scroll-rules.ts refuses that). */
export function totalHitsOf(body: Record<string, unknown>, query: Query, scroll: boolean): TotalHits {
  const asInt = flag(query, 'rest_total_hits_as_int');
  const given = parseTrack(body.track_total_hits ?? query.track_total_hits);
  if (given !== undefined && given < ACCURATE)
    throw badRequest(`[track_total_hits] parameter must be positive or equals to -1, got ${given}`);
  if (asInt && given !== undefined && given !== ACCURATE && given !== 0)
    throw badRequest(
      `[rest_total_hits_as_int] cannot be used if the tracking of total hits is not accurate, got ${given}`,
    );
  // rest_total_hits_as_int and scrolls count every hit (RestSearchAction, TopDocsCollectorContext)
  const upTo = given ?? (asInt || scroll ? ACCURATE : DEFAULT_TRACK_TOTAL_HITS);
  return { upTo, asInt };
}

/** The `hits.total` field, or undefined when the request turned counting off. */
export function totalField(
  count: number,
  t: TotalHits,
): number | { value: number; relation: 'eq' | 'gte' } | undefined {
  if (t.asInt) return t.upTo === 0 ? -1 : count;
  if (t.upTo === 0) return undefined;
  if (t.upTo !== ACCURATE && count > t.upTo) return { value: t.upTo, relation: 'gte' };
  return { value: count, relation: 'eq' };
}
