/** An in-memory ClusterApi for the stored-query tests: PIT/search_after, scroll, _mapping/field, macros, PUT with if_seq_no. */
import type { ApiRequest, ApiResponse, ClusterApi } from '../../../src/cluster/types.ts';

export interface FakeDoc {
  source: Record<string, unknown>;
  seqNo: number;
  primaryTerm: number;
}
export interface FakeOptions {
  docs: Record<string, Record<string, Record<string, unknown>>>;
  /** A `_mapping` response (index → {mappings}). */
  mappings?: Record<string, unknown>;
  macros?: Array<{ name: string; args: string[]; definition: string }>;
  /** No PIT API: 400 as a cluster before 2.4 would answer. */
  noPit?: boolean;
  /** Called on each PUT before the seq_no check (to race a writer). */
  onPut?: (index: string, id: string, fake: FakeCluster) => void;
}

export type FakeCluster = ClusterApi & {
  seen: ApiRequest[];
  store: Map<string, Map<string, FakeDoc>>;
  pits: Set<string>;
  scrolls: Set<string>;
  bump: (index: string, id: string, source?: Record<string, unknown>) => void;
};

const ok = (body: unknown, statusCode = 200): ApiResponse => ({ statusCode, body });
const missing = (name: string) =>
  ok({ error: { type: 'index_not_found_exception', reason: `no such index [${name}]` }, status: 404 }, 404);

export function fakeCluster(o: FakeOptions): FakeCluster {
  let seq = 0;
  const store = new Map<string, Map<string, FakeDoc>>();
  for (const [index, docs] of Object.entries(o.docs)) {
    store.set(
      index,
      new Map(
        Object.entries(docs).map(([id, source]) => [
          id,
          { source: structuredClone(source), seqNo: seq++, primaryTerm: 1 },
        ]),
      ),
    );
  }
  const pits = new Map<string, string>();
  const scrolls = new Map<string, { rows: Array<[string, FakeDoc]>; pos: number; size: number; index: string }>();
  const hit = (index: string, [id, d]: [string, FakeDoc], withSeq: boolean) => ({
    _index: index,
    _id: id,
    ...(withSeq ? { _seq_no: d.seqNo, _primary_term: d.primaryTerm } : {}),
    _source: structuredClone(d.source),
    sort: [id],
  });
  const sorted = (index: string) => [...store.get(index)!.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const fake: FakeCluster = {
    url: 'http://fake:9200',
    seen: [],
    store,
    pits: new Set(),
    scrolls: new Set(),
    bump(index, id, source) {
      const d = store.get(index)!.get(id)!;
      d.source = source ?? { ...d.source, touched: true };
      d.seqNo = seq++;
    },
    async request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
      fake.seen.push(structuredClone(req));
      const { method, path } = req;
      const q = req.querystring ?? {};
      const body = (req.body ?? {}) as Record<string, any>;
      let m: RegExpExecArray | null;
      if (method === 'POST' && (m = /^\/([^/]+)\/_search\/point_in_time$/.exec(path))) {
        if (o.noPit) return ok({ error: { type: 'illegal_argument_exception' }, status: 400 }, 400) as ApiResponse<T>;
        const index = decodeURIComponent(m[1]);
        if (!store.has(index)) return missing(index) as ApiResponse<T>;
        const id = `pit-${pits.size}`;
        pits.set(id, index);
        fake.pits.add(id);
        return ok({ pit_id: id }) as ApiResponse<T>;
      }
      if (method === 'DELETE' && path === '/_search/point_in_time') {
        for (const id of body.pit_id) fake.pits.delete(id);
        return ok({ pits: [] }) as ApiResponse<T>;
      }
      if (method === 'POST' && path === '/_search') {
        const index = pits.get(body.pit.id)!;
        const after = body.search_after?.[0];
        const rows = sorted(index)
          .filter(([id]) => after === undefined || id > after)
          .slice(0, body.size);
        return ok({
          pit_id: body.pit.id,
          hits: { hits: rows.map((r) => hit(index, r, q.seq_no_primary_term === true)) },
        }) as ApiResponse<T>;
      }
      if (method === 'POST' && (m = /^\/([^/]+)\/_search$/.exec(path))) {
        const index = decodeURIComponent(m[1]);
        if (index === '.sm_sme_macros')
          return ok({
            hits: { total: { value: (o.macros ?? []).length }, hits: (o.macros ?? []).map((s) => ({ _source: s })) },
          }) as ApiResponse<T>;
        if (!store.has(index)) return missing(index) as ApiResponse<T>;
        const rows = sorted(index);
        const id = `scroll-${scrolls.size}`;
        scrolls.set(id, { rows, pos: body.size, size: body.size, index });
        fake.scrolls.add(id);
        return ok({
          _scroll_id: id,
          hits: { hits: rows.slice(0, body.size).map((r) => hit(index, r, q.seq_no_primary_term === true)) },
        }) as ApiResponse<T>;
      }
      if (method === 'POST' && path === '/_search/scroll') {
        const s = scrolls.get(body.scroll_id)!;
        const rows = s.rows.slice(s.pos, s.pos + s.size);
        s.pos += s.size;
        return ok({
          _scroll_id: body.scroll_id,
          hits: { hits: rows.map((r) => hit(s.index, r, true)) },
        }) as ApiResponse<T>;
      }
      if (method === 'DELETE' && path === '/_search/scroll') {
        for (const id of body.scroll_id) fake.scrolls.delete(id);
        return ok({ succeeded: true }) as ApiResponse<T>;
      }
      if (method === 'GET' && /\/_mapping/.test(path)) return ok(o.mappings ?? {}) as ApiResponse<T>;
      if (method === 'PUT' && (m = /^\/([^/]+)\/_doc\/([^/]+)$/.exec(path))) {
        const [index, id] = [decodeURIComponent(m[1]), decodeURIComponent(m[2])];
        o.onPut?.(index, id, fake);
        const d = store.get(index)?.get(id);
        if (!d || d.seqNo !== q.if_seq_no || d.primaryTerm !== q.if_primary_term) {
          return ok({ error: { type: 'version_conflict_engine_exception' }, status: 409 }, 409) as ApiResponse<T>;
        }
        d.source = structuredClone(body);
        d.seqNo = seq++;
        return ok({ result: 'updated' }) as ApiResponse<T>;
      }
      if (method === 'POST' && path.endsWith('/_refresh')) return ok({}) as ApiResponse<T>;
      return ok({ error: 'no route' }, 404) as ApiResponse<T>;
    },
    async close() {},
  };
  return fake;
}

export const TEXT_KW = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
/** `GET _mapping` of two log indices: host text+keyword, user text, code long. */
export const MAPPINGS = {
  'logs-1': { mappings: { properties: { host: TEXT_KW, user: { type: 'text' }, code: { type: 'long' } } } },
  'logs-2': { mappings: { properties: { host: TEXT_KW, user: { type: 'text' } } } },
};
