import type { ClusterView } from '../model.ts';
import { badRequest } from './errors.ts';
import { flag, parseTime, type Reply } from './http.ts';
import { isData, storeOf, syncAllocation, upNodes } from './cluster.ts';
import { resolveIndices } from './patterns.ts';
import { indexHealth, worst, type HealthColor } from './shards.ts';
import { delayOf, isDelayed } from './alloc.ts';
import { shardsHealth } from './health-shards.ts';
import { route, type Ctx, type Route } from './router.ts';

const RANK: Record<HealthColor, number> = { red: 0, yellow: 1, green: 2 };

/** The health body for the given indices (all when undefined). */
export function healthBody(view: ClusterView, pattern: string | undefined, level?: string): Record<string, unknown> {
  const store = storeOf(view);
  const names = resolveIndices(pattern, store.names(), { allIncludesHidden: true, ignoreUnavailable: false });
  const nodes = upNodes(view);
  let primaries = 0;
  let active = 0;
  let unassigned = 0;
  let initializing = 0;
  let delayed = 0;
  const up = new Set(store.dataNodes ?? []);
  const now = store.now();
  const per: Record<string, unknown> = {};
  const healths: HealthColor[] = [];
  for (const name of names) {
    const rec = store.get(name)!;
    const h = indexHealth(rec);
    healths.push(h);
    const ap = rec.copies.filter((c) => c.primary && c.state === 'STARTED').length;
    const a = rec.copies.filter((c) => c.state === 'STARTED').length;
    const init = rec.copies.filter((c) => c.state === 'INITIALIZING').length;
    const un = rec.copies.filter((c) => c.state === 'UNASSIGNED').length;
    primaries += ap;
    active += a;
    initializing += init;
    unassigned += un;
    delayed += rec.copies.filter((c) => isDelayed(c, up, now, delayOf(rec, store.timing))).length;
    per[name] = {
      status: h,
      number_of_shards: Number(rec.settings['index.number_of_shards']),
      number_of_replicas: Number(rec.settings['index.number_of_replicas']),
      active_primary_shards: ap,
      active_shards: a,
      relocating_shards: 0,
      initializing_shards: init,
      unassigned_shards: un,
      ...(level === 'shards' ? { shards: shardsHealth(rec) } : {}),
    };
  }
  const total = active + unassigned + initializing;
  const manager = view.electedManager() !== null;
  return {
    cluster_name: view.clusterName,
    status: worst(healths),
    timed_out: false,
    number_of_nodes: nodes.length,
    number_of_data_nodes: nodes.filter(isData).length,
    discovered_master: manager,
    discovered_cluster_manager: manager,
    active_primary_shards: primaries,
    active_shards: active,
    relocating_shards: 0,
    initializing_shards: initializing,
    unassigned_shards: unassigned,
    delayed_unassigned_shards: delayed,
    number_of_pending_tasks: 0,
    number_of_in_flight_fetch: 0,
    task_max_waiting_in_queue_millis: 0,
    active_shards_percent_as_number: total === 0 ? 100 : (active / total) * 100,
    ...(level === 'indices' || level === 'shards' ? { indices: per } : {}),
  };
}

/** `N`, `>=N`, `<=N`, `>N`, `<N`, `ge(N)`, `le(N)`, `gt(N)`, `lt(N)` → predicate on the node count. */
export function parseWaitForNodes(spec: string): (n: number) => boolean {
  const m = /^(?:(>=|<=|>|<)\s*(\d+)|(ge|le|gt|lt)\((\d+)\)|(\d+))$/.exec(spec.trim());
  if (!m) throw badRequest(`cannot parse wait_for_nodes [${spec}]`);
  const op = m[1] ?? m[3] ?? 'eq';
  const want = Number(m[2] ?? m[4] ?? m[5]);
  const ops: Record<string, (n: number) => boolean> = {
    '>=': (n) => n >= want,
    ge: (n) => n >= want,
    '<=': (n) => n <= want,
    le: (n) => n <= want,
    '>': (n) => n > want,
    gt: (n) => n > want,
    '<': (n) => n < want,
    lt: (n) => n < want,
    eq: (n) => n === want,
  };
  return ops[op];
}

async function health(ctx: Ctx): Promise<Reply> {
  const q = ctx.query;
  const wantStatus = q.wait_for_status as HealthColor | undefined;
  if (wantStatus !== undefined && !(wantStatus in RANK))
    throw badRequest(`unknown cluster health status [${wantStatus}]`);
  const nodesOk = q.wait_for_nodes ? parseWaitForNodes(q.wait_for_nodes) : () => true;
  const timeout = parseTime(q.timeout ?? '30s', 'timeout');
  const deadline = Date.now() + timeout;
  const noRelocating = flag(q, 'wait_for_no_relocating_shards');
  const noInitializing = flag(q, 'wait_for_no_initializing_shards');
  const waiting = wantStatus !== undefined || q.wait_for_nodes !== undefined || noRelocating || noInitializing;
  for (;;) {
    syncAllocation(ctx.view);
    const body = healthBody(ctx.view, ctx.params.index, q.level);
    const met =
      (!wantStatus || RANK[body.status as HealthColor] >= RANK[wantStatus]) &&
      nodesOk(body.number_of_nodes as number) &&
      (!noRelocating || body.relocating_shards === 0) &&
      (!noInitializing || body.initializing_shards === 0);
    if (!waiting || met) return { body };
    if (Date.now() >= deadline) return { status: 408, body: { ...body, timed_out: true } };
    await new Promise((r) => setTimeout(r, Math.min(50, Math.max(1, deadline - Date.now()))));
  }
}

export const healthRoutes: Route[] = [
  route('GET', '/_cluster/health', health),
  route('GET', '/_cluster/health/{index}', health),
];
