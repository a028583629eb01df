/** `_cluster/settings` (persistent and transient, `null` resets), `_flush`, `_cat/cluster_manager`. */
import { badRequest } from './errors.ts';
import { flag, type Reply } from './http.ts';
import { renderCat, type CatColumn } from './catfmt.ts';
import { nodeId, upNodes, versionOf } from './cluster.ts';
import { resolveIndices } from './patterns.ts';
import { route, type Ctx, type Route } from './router.ts';
import { ALLOCATION_ENABLE } from './store.ts';
import { flatten, nest, sortedFlat, type Flat } from './tree.ts';
import { unknownSetting } from './known-settings.ts';

const ENABLE_VALUES = ['all', 'primaries', 'new_primaries', 'none'];

const show = (flat: Flat, asFlat: boolean): Record<string, unknown> => (asFlat ? sortedFlat(flat) : nest(flat));

/** Defaults of the settings the lab's clients read (ClusterSettings' registered defaults in 2.x). */
const DEFAULTS: Flat = {
  'cluster.max_shards_per_node': '1000',
  'cluster.routing.allocation.disk.threshold_enabled': 'true',
  'cluster.routing.allocation.disk.watermark.low': '85%',
  'cluster.routing.allocation.disk.watermark.high': '90%',
  'cluster.routing.allocation.disk.watermark.flood_stage': '95%',
  'cluster.routing.allocation.enable': 'all',
};

function getClusterSettings(ctx: Ctx): Reply {
  const { persistent, transient } = ctx.store.clusterSettings;
  const f = flag(ctx.query, 'flat_settings');
  const body: Record<string, unknown> = { persistent: show(persistent, f), transient: show(transient, f) };
  // include_defaults: every default of a setting set in neither section
  if (flag(ctx.query, 'include_defaults'))
    body.defaults = show(
      Object.fromEntries(Object.entries(DEFAULTS).filter(([k]) => !(k in persistent) && !(k in transient))),
      f,
    );
  return { body };
}

function section(body: unknown, name: 'persistent' | 'transient'): Record<string, string | null> {
  const part = (body as Record<string, unknown> | null)?.[name];
  if (part === undefined || part === null) return {};
  if (typeof part !== 'object' || Array.isArray(part))
    throw badRequest(`[${name}] must be an object`, 'parsing_exception');
  return flatten(part as Record<string, unknown>);
}

/** Validates both sections first, so a bad value changes nothing. */
function putClusterSettings(ctx: Ctx): Reply {
  const given = { persistent: section(ctx.body, 'persistent'), transient: section(ctx.body, 'transient') };
  if (!Object.keys(given.persistent).length && !Object.keys(given.transient).length) {
    throw badRequest('Validation Failed: 1: no settings to update;', 'action_request_validation_exception');
  }
  for (const scope of ['persistent', 'transient'] as const) {
    const unknown = unknownSetting(scope, given[scope], versionOf(ctx.view));
    if (unknown !== null) throw badRequest(unknown);
  }
  for (const part of Object.values(given)) {
    const v = part[ALLOCATION_ENABLE];
    if (v !== undefined && v !== null && !ENABLE_VALUES.includes(v))
      throw badRequest(`Illegal allocation.enable value [${v.toUpperCase()}]`);
  }
  const changed: { persistent: Flat; transient: Flat } = { persistent: {}, transient: {} };
  for (const name of ['persistent', 'transient'] as const) {
    const target = ctx.store.clusterSettings[name];
    for (const [k, v] of Object.entries(given[name])) {
      if (v === null) delete target[k];
      else target[k] = changed[name][k] = v;
    }
  }
  ctx.store.allocate();
  const f = flag(ctx.query, 'flat_settings');
  return {
    body: { acknowledged: true, persistent: show(changed.persistent, f), transient: show(changed.transient, f) },
  };
}

/** Flush: nothing to write in the lab; the answer counts the started copies as the engine does. */
function flush(ctx: Ctx): Reply {
  const names = resolveIndices(ctx.params.index, ctx.store.names(), {
    allIncludesHidden: !ctx.params.index,
    ignoreUnavailable: flag(ctx.query, 'ignore_unavailable'),
  });
  let total = 0;
  let ok = 0;
  for (const n of names) {
    const rec = ctx.store.get(n)!;
    total += rec.copies.length;
    ok += rec.copies.filter((c) => c.state === 'STARTED').length;
  }
  return { body: { _shards: { total, successful: ok, failed: 0 } } };
}

const MANAGER_COLUMNS: CatColumn[] = [
  { name: 'id', dflt: true },
  { name: 'host', aliases: ['h'], dflt: true },
  { name: 'ip', dflt: true },
  { name: 'node', aliases: ['n'], dflt: true },
];

function catManager(ctx: Ctx) {
  const elected = ctx.view.electedManager();
  const n = upNodes(ctx.view).find((x) => x.name === elected);
  const rows = n
    ? [{ id: nodeId(n.name), host: n.ip, ip: n.ip, node: n.name }]
    : [{ id: '-', host: '-', ip: '-', node: '-' }];
  return renderCat(MANAGER_COLUMNS, rows, ctx.query);
}

export const clusterSettingsRoutes: Route[] = [
  route('GET', '/_cluster/settings', getClusterSettings),
  route('PUT', '/_cluster/settings', putClusterSettings),
  route('POST,GET', '/_flush', flush),
  route('POST,GET', '/{index}/_flush', flush),
  route('GET', '/_cat/cluster_manager', catManager),
  route('GET', '/_cat/master', catManager),
];
