/** Every document of one index page by page (point in time + search_after), the next page fetched while this one is used. */

import { ApiError } from '../../base/errors.ts';
import type { ClusterApi } from '../../cluster/types.ts';
import { checkStatus as check, scrollHits, type ScrollHit } from '../../cluster/scroll.ts';
import { SearchPage, shaped } from '../../cluster/shapes.ts';
import { toDoc, type ReadOptions, type StoredDoc } from './read.ts';

const enc = (s: string) => encodeURIComponent(s);

export type Pages = { missing: true } | { missing: false; pages: AsyncGenerator<StoredDoc[]> };

/** `missing` when the index does not exist; otherwise pages whose PIT (or scroll) is deleted when the loop ends, however it ends. */
export async function openPages(api: ClusterApi, index: string, o: ReadOptions = {}): Promise<Pages> {
  const size = o.page ?? 500;
  const keep = o.keepAlive ?? '1m';
  const open = await api.request({
    method: 'POST',
    path: `/${enc(index)}/_search/point_in_time`,
    querystring: { keep_alive: keep },
  });
  if (open.statusCode === 404 || open.statusCode === 400) {
    // no PIT API (before 2.4) or no such index: the scroll tells which (and is read whole: old clusters only)
    const hits = await scrollHits(api, `/${enc(index)}/_search`, {
      size,
      keepAlive: keep,
      querystring: { seq_no_primary_term: true },
      sort: ['_doc'],
    });
    if (!hits) return { missing: true };
    return {
      missing: false,
      pages: (async function* () {
        yield hits.map(toDoc(index));
      })(),
    };
  }
  check(open.statusCode, `POST ${api.url}/${index}/_search/point_in_time`);
  const opened = shaped(SearchPage, open.body, `POST /${index}/_search/point_in_time`).pit_id;
  if (!opened) throw new ApiError(`POST ${api.url}/${index}/_search/point_in_time gave no pit_id`);
  let pit: string = opened;
  const fetchPage = (after?: unknown[]) =>
    api.request({
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
  async function* pages(): AsyncGenerator<StoredDoc[]> {
    let next: ReturnType<typeof fetchPage> | undefined = fetchPage();
    try {
      while (next) {
        const res = await next;
        next = undefined;
        check(res.statusCode, `POST ${api.url}/_search (point in time of ${index})`);
        const body = shaped(SearchPage, res.body, `POST /_search (point in time of ${index})`);
        if (body.pit_id) pit = body.pit_id; // the id may change between pages
        const hits = (body.hits?.hits ?? []) as ScrollHit[];
        const after = hits.length === size ? hits[hits.length - 1].sort : undefined;
        if (after) next = fetchPage(after); // in flight while the caller analyses this page
        yield hits.map(toDoc(index));
      }
    } finally {
      if (next) await next.catch(() => undefined);
      await api
        .request({ method: 'DELETE', path: '/_search/point_in_time', body: { pit_id: [pit] } })
        .catch(() => undefined);
    }
  }
  return { missing: false, pages: pages() };
}
