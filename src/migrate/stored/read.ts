/** Reads every document of one index: point in time + search_after, or a scroll where PIT is unavailable. */

import { ApiError } from '../../errors.ts';
import type { ClusterApi } from '../../cluster/types.ts';
import { checkStatus as check, scrollHits, type ScrollHit } from '../../cluster/scroll.ts';
import { SearchPage, shaped } from '../../cluster/shapes.ts';

export interface StoredDoc {
  index: string;
  id: string;
  seqNo: number;
  primaryTerm: number;
  source: Record<string, unknown>;
}

export interface ReadOptions {
  /** Documents per request. */
  page?: number;
  keepAlive?: string;
}

type Hit = ScrollHit;
interface SearchBody {
  pit_id?: string;
  _scroll_id?: string;
  hits?: { hits?: Hit[] };
}

const enc = (s: string) => encodeURIComponent(s);

export const toDoc =
  (index: string) =>
  (h: Hit): StoredDoc => ({
    index: h._index ?? index,
    id: String(h._id),
    seqNo: Number(h._seq_no),
    primaryTerm: Number(h._primary_term),
    source: (typeof h._source === 'object' && h._source !== null ? h._source : {}) as Record<string, unknown>,
  });

/** `null` when the index does not exist (nothing stored there); the PIT or scroll is always deleted. */
export async function readAll(api: ClusterApi, index: string, o: ReadOptions = {}): Promise<StoredDoc[] | null> {
  const size = o.page ?? 500;
  const keep = o.keepAlive ?? '1m';
  const open = await api.request<{ pit_id?: string }>({
    method: 'POST',
    path: `/${enc(index)}/_search/point_in_time`,
    querystring: { keep_alive: keep },
  });
  // 404/400: no PIT API (before 2.4) or no such index; the scroll tells which
  if (open.statusCode === 404 || open.statusCode === 400) return scrollAll(api, index, size, keep);
  check(open.statusCode, `POST ${api.url}/${index}/_search/point_in_time`);
  if (!shaped(SearchPage, open.body, `POST /${index}/_search/point_in_time`).pit_id)
    throw new ApiError(`POST ${api.url}/${index}/_search/point_in_time gave no pit_id`);
  let pit: string = open.body.pit_id!;
  const out: StoredDoc[] = [];
  try {
    let after: unknown[] | undefined;
    for (;;) {
      const res = await api.request<SearchBody>({
        method: 'POST',
        path: '/_search',
        querystring: { seq_no_primary_term: true },
        // _id is unique within the one index read; _shard_doc is not known to every OpenSearch version
        body: {
          size,
          pit: { id: pit, keep_alive: keep },
          sort: [{ _id: 'asc' }],
          query: { match_all: {} },
          ...(after ? { search_after: after } : {}),
        },
      });
      check(res.statusCode, `POST ${api.url}/_search (point in time of ${index})`);
      const body = shaped(SearchPage, res.body, `POST /_search (point in time of ${index})`);
      if (body.pit_id) pit = body.pit_id; // the id may change between pages
      const hits = body.hits?.hits ?? [];
      out.push(...hits.map(toDoc(index)));
      if (hits.length < size) break;
      after = hits[hits.length - 1].sort;
      if (!after) break;
    }
  } finally {
    await api
      .request({ method: 'DELETE', path: '/_search/point_in_time', body: { pit_id: [pit] } })
      .catch(() => undefined);
  }
  return out;
}

async function scrollAll(api: ClusterApi, index: string, size: number, keep: string): Promise<StoredDoc[] | null> {
  const hits = await scrollHits(api, `/${enc(index)}/_search`, {
    size,
    keepAlive: keep,
    querystring: { seq_no_primary_term: true },
    sort: ['_doc'],
  });
  return hits && hits.map(toDoc(index));
}
