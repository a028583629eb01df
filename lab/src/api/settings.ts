import { flag, type Reply } from './http.ts';
import { resolveIndices } from './patterns.ts';
import { route, type Ctx, type Route } from './router.ts';
import { wildcardRe } from './fields.ts';
import { nest, sortedFlat, type Flat } from './tree.ts';
import type { IndexRecord } from './records.ts';

/** One index's settings as GET _settings shows them (nested unless flat_settings). */
export function settingsView(rec: IndexRecord, flat: boolean, names?: string): Record<string, unknown> {
  let picked: Flat = rec.settings;
  if (names) {
    const res = names.split(',').map(wildcardRe);
    picked = Object.fromEntries(Object.entries(picked).filter(([k]) => res.some((re) => re.test(k))));
  }
  return flat ? sortedFlat(picked) : nest(picked);
}

function getSettings(ctx: Ctx): Reply {
  const names = resolveIndices(ctx.params.index, ctx.store.names(), {
    aliases: ctx.store.aliases(),
    ignoreUnavailable: flag(ctx.query, 'ignore_unavailable'),
  });
  const flat = flag(ctx.query, 'flat_settings');
  const body: Record<string, unknown> = {};
  for (const n of names) {
    const settings = settingsView(ctx.store.get(n)!, flat, ctx.params.name);
    // A name filter that matches nothing leaves the index out, as the engine does.
    if (!ctx.params.name || Object.keys(settings).length) body[n] = { settings };
  }
  return { body };
}

function putSettings(ctx: Ctx): Reply {
  const names = resolveIndices(ctx.params.index, ctx.store.names(), {
    aliases: ctx.store.aliases(),
    ignoreUnavailable: flag(ctx.query, 'ignore_unavailable'),
  });
  // The same body for every index: if the first passes validation, all do.
  for (const n of names) ctx.store.putSettings(n, ctx.body ?? {});
  return { body: { acknowledged: true } };
}

export const settingsRoutes: Route[] = [
  route('GET', '/_settings', getSettings),
  route('GET', '/_settings/{name}', getSettings),
  route('GET', '/{index}/_settings', getSettings),
  route('GET', '/{index}/_settings/{name}', getSettings),
  route('PUT', '/_settings', putSettings),
  route('PUT', '/{index}/_settings', putSettings),
];
