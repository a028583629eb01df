import type { ClusterView } from '../model.ts';
import { ApiFailure, badRequest } from './errors.ts';
import { flag, parseTime, type Reply } from './http.ts';
import { resolveIndices } from './patterns.ts';
import { compileQuery, type Candidate } from './query.ts';
import { parseSort, sortCandidates, type Sorted } from './sort.ts';
import { lazyCandidate, pitRows } from './pitrows.ts';
import { Contexts, type ScrollCtx } from './contexts.ts';
import { route, type Ctx, type Route } from './router.ts';
import type { IndexStore } from './store.ts';
import { totalField, totalHitsOf } from './totalhits.ts';
import { scrollFailures, validationFailed } from './scroll-rules.ts';

const contextsByView = new WeakMap<ClusterView, Contexts>();

/** Scrolls and PITs are cluster-wide: every node's handler over one view shares them. */
export function contextsOf(view: ClusterView): Contexts {
  let c = contextsByView.get(view);
  if (!c) contextsByView.set(view, (c = new Contexts()));
  return c;
}

type Body = Record<string, unknown>;

/** Candidates over the packed records: a source is parsed only when a query, sort or hit reads it. */
export function candidatesOf(store: IndexStore, names: string[]): Candidate[] {
  return names.flatMap((name, indexPos) =>
    store
      .get(name)!
      .docs.packedEntries()
      .map(([id, p]) => lazyCandidate(name, id, p, indexPos)),
  );
}

const shardCount = (store: IndexStore, names: string[]) =>
  names.reduce((n, name) => n + Number(store.get(name)!.settings['index.number_of_shards']), 0);

function filterSource(src: Record<string, unknown>, spec: unknown): Record<string, unknown> | undefined {
  if (spec === false || spec === 'false') return undefined;
  const includes = Array.isArray(spec) ? spec : typeof spec === 'string' && spec !== 'true' ? spec.split(',') : null;
  if (!includes) return src;
  return Object.fromEntries(
    Object.entries(src).filter(([k]) => includes.some((i) => i === k || String(i).startsWith(`${k}.`))),
  );
}

function hit(r: Sorted, o: { seqNoPrimaryTerm: boolean; version: boolean; source: unknown; hasSort: boolean }) {
  const source = filterSource(r.c.source, o.source);
  return {
    _index: r.c.index,
    _id: r.c.id,
    ...(o.version ? { _version: r.c.version } : {}),
    ...(o.seqNoPrimaryTerm ? { _seq_no: r.c.seqNo, _primary_term: r.c.primaryTerm } : {}),
    _score: o.hasSort ? null : 1.0,
    ...(source ? { _source: source } : {}),
    ...(o.hasSort ? { sort: r.values } : {}),
  };
}

function page(scroll: ScrollCtx, rows: Sorted[]): Body {
  const total = totalField(scroll.total, scroll.totalHits);
  return {
    took: 1,
    timed_out: false,
    _shards: { total: scroll.shards, successful: scroll.shards, skipped: 0, failed: 0 },
    hits: {
      ...(total === undefined ? {} : { total }),
      max_score: scroll.hasSort || scroll.total === 0 ? null : 1.0,
      hits: rows.map((r) => hit(r, scroll)),
    },
  };
}

function search(ctx: Ctx): Reply {
  const q = ctx.query;
  const body = (ctx.body ?? {}) as Body;
  const contexts = contextsOf(ctx.view);
  contexts.purge();
  const pit = body.pit as { id?: string; keep_alive?: string } | undefined;
  const totalHits = totalHitsOf(body, q, !!q.scroll);
  const size = Number(body.size ?? q.size ?? 10);
  const from = Number(body.from ?? q.from ?? 0);
  if (!Number.isInteger(size) || size < 0 || !Number.isInteger(from) || from < 0)
    throw badRequest('[size] and [from] must be non-negative integers');
  if (q.scroll) {
    const failures = scrollFailures({ trackUpTo: totalHits.upTo, from, size, pit: pit !== undefined }, body, q);
    if (failures.length) throw validationFailed(failures);
  }
  let cands: Candidate[];
  let shards: number;
  if (pit) {
    if (ctx.params.index)
      throw new ApiFailure(
        400,
        'action_request_validation_exception',
        'Validation Failed: 1: [indices] cannot be used with point in time;',
      );
    const p = contexts.pits.get(String(pit.id));
    if (!p) throw new ApiFailure(404, 'search_context_missing_exception', `No search context found for id [${pit.id}]`);
    if (pit.keep_alive) p.expires = Date.now() + parseTime(pit.keep_alive, 'keep_alive');
    cands = p.cands;
    shards = p.shards;
  } else {
    const names = resolveIndices(ctx.params.index, ctx.store.names(), {
      aliases: ctx.store.aliases(),
      ignoreUnavailable: flag(q, 'ignore_unavailable'),
    });
    cands = candidatesOf(ctx.store, names);
    shards = shardCount(ctx.store, names);
  }
  if (!q.scroll && from + size > 10000) {
    throw badRequest(
      `Result window is too large, from + size must be less than or equal to: [10000] but was [${from + size}].`,
    );
  }
  const match = compileQuery(body.query);
  let keys = parseSort(body.sort ?? q.sort);
  if (pit && keys.length === 0) keys = [{ field: '_shard_doc', desc: false }];
  const after = body.search_after as unknown[] | undefined;
  if (after && keys.length === 0) throw badRequest('Sort must contain at least one field.');
  // a PIT's sorted rows are shared by its pages: a page is read from `start`, never copied out whole
  const { rows, start } = pit
    ? pitRows(
        contexts.pits.get(String(pit.id))!,
        body.query,
        keys,
        () => sortCandidates(cands.filter(match), keys),
        after,
      )
    : { rows: sortCandidates(cands.filter(match), keys, after), start: 0 };
  const opts = {
    rows,
    pos: 0,
    size,
    total: rows.length - start,
    totalHits,
    shards,
    hasSort: keys.length > 0,
    seqNoPrimaryTerm: flag(q, 'seq_no_primary_term') || body.seq_no_primary_term === true,
    version: flag(q, 'version') || body.version === true,
    source: body._source ?? q._source,
    expires: 0,
  };
  if (q.scroll) {
    opts.expires = Date.now() + parseTime(q.scroll, 'scroll');
    opts.pos = size;
    const id = contexts.addScroll(opts);
    return { body: { _scroll_id: id, ...page(opts, rows.slice(0, size)) } };
  }
  const out = page(opts, rows.slice(start + from, start + from + size));
  return { body: pit ? { pit_id: pit.id, ...out } : out };
}

function scroll(ctx: Ctx): Reply {
  const body = (ctx.body ?? {}) as Body;
  const id = String(ctx.params.id ?? body.scroll_id ?? ctx.query.scroll_id ?? '');
  const contexts = contextsOf(ctx.view);
  contexts.purge();
  const s = contexts.scrolls.get(id);
  if (!s) throw new ApiFailure(404, 'search_context_missing_exception', `No search context found for id [${id}]`);
  const keep = (body.scroll ?? ctx.query.scroll) as string | undefined;
  if (keep) s.expires = Date.now() + parseTime(keep, 'scroll');
  const rows = s.rows.slice(s.pos, s.pos + s.size);
  s.pos += s.size;
  return { body: { _scroll_id: id, ...page(s, rows) } };
}

const idList = (x: unknown): string[] =>
  x === undefined ? [] : Array.isArray(x) ? x.map(String) : String(x).split(',');

function clearScroll(ctx: Ctx): Reply {
  const contexts = contextsOf(ctx.view);
  const body = (ctx.body ?? {}) as Body;
  const ids =
    ctx.params.id === '_all'
      ? [...contexts.scrolls.keys()]
      : idList(ctx.params.id ?? body.scroll_id ?? ctx.query.scroll_id);
  const freed = ids.filter((id) => contexts.scrolls.delete(id)).length;
  return { status: freed || ids.length === 0 ? 200 : 404, body: { succeeded: true, num_freed: freed } };
}

function createPit(ctx: Ctx): Reply {
  const keep = ctx.query.keep_alive;
  if (!keep)
    throw new ApiFailure(400, 'action_request_validation_exception', 'Validation Failed: 1: keep alive not specified;');
  const keepAlive = parseTime(keep, 'keep_alive');
  const names = resolveIndices(ctx.params.index, ctx.store.names(), { aliases: ctx.store.aliases() });
  const shards = shardCount(ctx.store, names);
  const created = Date.now();
  // Packed records are replaced on write, never changed: holding them freezes the point in time without a copy.
  const cands = candidatesOf(ctx.store, names);
  const id = contextsOf(ctx.view).addPit({
    indices: names,
    cands,
    shards,
    created,
    keepAlive,
    expires: created + keepAlive,
  });
  return {
    body: { pit_id: id, _shards: { total: shards, successful: shards, skipped: 0, failed: 0 }, creation_time: created },
  };
}

function deletePit(ctx: Ctx): Reply {
  const contexts = contextsOf(ctx.view);
  const ids = ctx.params.all ? [...contexts.pits.keys()] : idList(((ctx.body ?? {}) as Body).pit_id);
  return { body: { pits: ids.map((id) => ({ successful: contexts.pits.delete(id), pit_id: id })) } };
}

function listPits(ctx: Ctx): Reply {
  const contexts = contextsOf(ctx.view);
  contexts.purge();
  return {
    body: {
      pits: [...contexts.pits].map(([id, p]) => ({ pit_id: id, creation_time: p.created, keep_alive: p.keepAlive })),
    },
  };
}

function count(ctx: Ctx): Reply {
  const names = resolveIndices(ctx.params.index, ctx.store.names(), {
    aliases: ctx.store.aliases(),
    ignoreUnavailable: flag(ctx.query, 'ignore_unavailable'),
  });
  const match = compileQuery(((ctx.body ?? {}) as Body).query);
  const shards = shardCount(ctx.store, names);
  return {
    body: {
      count: candidatesOf(ctx.store, names).filter(match).length,
      _shards: { total: shards, successful: shards, skipped: 0, failed: 0 },
    },
  };
}

export const searchRoutes: Route[] = [
  route('GET,POST', '/_search', search),
  route('GET,POST', '/{index}/_search', search),
  route('GET,POST', '/_search/scroll', scroll),
  route('GET,POST', '/_search/scroll/{id}', scroll),
  route('DELETE', '/_search/scroll', clearScroll),
  route('DELETE', '/_search/scroll/{id}', clearScroll),
  route('POST', '/{index}/_search/point_in_time', createPit),
  route('GET', '/_search/point_in_time/_all', listPits),
  route('DELETE', '/_search/point_in_time', deletePit),
  route('DELETE', '/_search/point_in_time/_all', (ctx) => deletePit({ ...ctx, params: { all: '1' } })),
  route('GET,POST', '/_count', count),
  route('GET,POST', '/{index}/_count', count),
];
