import { flag, type Reply } from './http.ts';
import { resolveIndices } from './patterns.ts';
import { route, type Ctx, type Route } from './router.ts';
import { settingsView } from './settings.ts';
import type { Mappings } from './fields.ts';

type Body = { settings?: Record<string, unknown>; mappings?: Mappings };

function createIndex(ctx: Ctx): Reply {
  const body = (ctx.body ?? {}) as Body;
  const rec = ctx.store.create(ctx.params.index, body.settings ?? {}, body.mappings ?? {});
  return { body: { acknowledged: true, shards_acknowledged: true, index: rec.name } };
}

function deleteIndex(ctx: Ctx): Reply {
  for (const n of resolveIndices(ctx.params.index, ctx.store.names())) ctx.store.deleteIndex(n);
  return { body: { acknowledged: true } };
}

/** GET /<pattern> (HEAD answers the same status without a body: the exists API). */
function getIndex(ctx: Ctx): Reply {
  const names = resolveIndices(ctx.params.index, ctx.store.names(), {
    ignoreUnavailable: flag(ctx.query, 'ignore_unavailable'),
  });
  const flat = flag(ctx.query, 'flat_settings');
  return {
    body: Object.fromEntries(
      names.map((n) => {
        const rec = ctx.store.get(n)!;
        return [n, { aliases: {}, mappings: rec.mappings, settings: settingsView(rec, flat) }];
      }),
    ),
  };
}

function refresh(ctx: Ctx): Reply {
  const names = resolveIndices(ctx.params.index, ctx.store.names());
  const total = names.reduce((n, name) => n + ctx.store.get(name)!.copies.length, 0);
  const ok = names.reduce((n, name) => n + ctx.store.get(name)!.copies.filter((c) => c.node).length, 0);
  return { body: { _shards: { total, successful: ok, failed: 0 } } };
}

export const indexRoutes: Route[] = [
  route('PUT', '/{index}', createIndex),
  route('DELETE', '/{index}', deleteIndex),
  route('GET', '/{index}', getIndex),
  route('GET,POST', '/_refresh', refresh),
  route('GET,POST', '/{index}/_refresh', refresh),
];
