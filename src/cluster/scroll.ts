/** Every hit of a search, page by page through a scroll that is always cleared. */
import { ApiError } from '../base/errors.ts';
import { SearchPage, shaped } from './shapes.ts';
import type { ClusterApi } from './types.ts';

export interface ScrollHit {
  _index?: string;
  _id?: string;
  _seq_no?: number;
  _primary_term?: number;
  _source?: unknown;
  sort?: unknown[];
}

interface ScrollPage {
  _scroll_id?: string;
  hits?: { hits?: ScrollHit[] };
}

export function checkStatus(status: number, what: string): void {
  if (status >= 300) throw new ApiError(`${what} answered ${status}`, { statusCode: status });
}

/** `null` when the index does not exist; other failures throw ApiError. */
export async function scrollHits(
  api: ClusterApi,
  path: string,
  o: { size: number; keepAlive?: string; querystring?: Record<string, string | number | boolean>; sort?: unknown[] },
): Promise<ScrollHit[] | null> {
  const keep = o.keepAlive ?? '1m';
  const first = await api.request({
    method: 'POST',
    path,
    querystring: { ...o.querystring, scroll: keep },
    body: { size: o.size, ...(o.sort ? { sort: o.sort } : {}), query: { match_all: {} } },
  });
  if (first.statusCode === 404) return null;
  checkStatus(first.statusCode, `POST ${api.url}${path}?scroll=${keep}`);
  const out: ScrollHit[] = [];
  let page = shaped(SearchPage, first.body, `POST ${path}`) as ScrollPage;
  let id = page._scroll_id;
  try {
    for (;;) {
      const hits = page.hits?.hits ?? [];
      out.push(...hits);
      if (hits.length === 0 || !id) break;
      const next = await api.request({
        method: 'POST',
        path: '/_search/scroll',
        body: { scroll: keep, scroll_id: id },
      });
      checkStatus(next.statusCode, `POST ${api.url}/_search/scroll`);
      page = shaped(SearchPage, next.body, 'POST /_search/scroll') as ScrollPage;
      id = page._scroll_id ?? id;
    }
  } finally {
    if (id)
      await api
        .request({ method: 'DELETE', path: '/_search/scroll', body: { scroll_id: [id] } })
        .catch(() => undefined);
  }
  return out;
}
