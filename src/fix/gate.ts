/** When a cluster may be touched, and when the next node may go: green, or with --allow-yellow a settled yellow. */
import type * as v from 'valibot';
import { catNodesWithManager } from '../cluster/engine-line.ts';
import { CatRows, HealthAnswer, shaped } from '../cluster/shapes.ts';
import type { ClusterApi } from '../cluster/types.ts';
import type { ClusterReport } from '../model/index.ts';
import { isDataRole } from '../facts/roles.ts';
import { apiErrorText } from './api-error.ts';

export type Health = v.InferOutput<typeof HealthAnswer>;

export interface GateRule {
  allowYellow: boolean;
  /** Data nodes the audit saw running: all must be present for a settled yellow. */
  dataNodes: number;
  /** Unassigned shards at pre-flight: a settled yellow may not have more (else a copy has not recovered yet). */
  baselineUnassigned: number;
}

export const dataNodeCount = (nodes: ClusterReport['nodes']): number =>
  nodes.filter((n) => n.name !== null && n.roles.some(isDataRole)).length;

/** null when the rule is met, else why not (one line). */
export function unmet(health: Health, rule: GateRule): string | null {
  const moving = (health.relocating_shards ?? 0) + (health.initializing_shards ?? 0);
  const shards = `${health.initializing_shards ?? '?'} initializing, ${health.relocating_shards ?? '?'} relocating, ${health.unassigned_shards ?? '?'} unassigned`;
  if (health.status === 'green' && moving === 0) return null;
  if (health.status === 'green') return `health is green but shards are moving (${shards})`;
  if (!rule.allowYellow) return `health is ${health.status ?? 'unknown'}, not green (${shards})`;
  if (health.status !== 'yellow') return `health is ${health.status ?? 'unknown'} (${shards})`;
  const why: string[] = [];
  if ((health.number_of_data_nodes ?? 0) < rule.dataNodes)
    why.push(`${health.number_of_data_nodes ?? 0} of ${rule.dataNodes} data nodes present`);
  if (moving > 0) why.push(`${health.initializing_shards} initializing, ${health.relocating_shards} relocating`);
  if ((health.delayed_unassigned_shards ?? 0) > 0) why.push(`${health.delayed_unassigned_shards} delayed unassigned`);
  if ((health.unassigned_shards ?? 0) > rule.baselineUnassigned)
    why.push(`${health.unassigned_shards} unassigned, ${rule.baselineUnassigned} before`);
  return why.length ? `health is yellow and not settled: ${why.join(', ')}` : null;
}

export async function readHealth(api: ClusterApi, querystring: Record<string, string> = {}): Promise<Health> {
  const r = await api.request({ method: 'GET', path: '/_cluster/health', querystring });
  // 408: a wait that was not met still carries the health body
  if (r.statusCode !== 200 && r.statusCode !== 408)
    throw new Error(`GET /_cluster/health: ${apiErrorText(r.statusCode, r.body)}`);
  return shaped(HealthAnswer, r.body ?? {}, 'GET /_cluster/health');
}

/** One line for the report: how the cluster was left. */
export const stateLine = (h: Health): string =>
  `cluster left ${h.status ?? 'unknown'} with ${h.unassigned_shards ?? '?'} unassigned, ${h.initializing_shards ?? '?'} initializing shards`;

export interface Preflight {
  ok: boolean;
  why: string;
  /** The elected cluster manager's node name, when one is. */
  elected: string | null;
  baselineUnassigned: number;
}

/** Before anything changes: health, and every master-eligible node to restart is present. */
export async function preflight(
  api: ClusterApi,
  clusterReport: ClusterReport,
  restartHosts: string[],
  allowYellow: boolean,
): Promise<Preflight> {
  const h = await readHealth(api);
  const cat = await catNodesWithManager(api, ['ip', 'name', 'node.roles']);
  if (cat.statusCode !== 200) throw new Error(`GET /_cat/nodes: ${apiErrorText(cat.statusCode, cat.body)}`);
  const rows = shaped(CatRows, cat.body, 'GET /_cat/nodes');
  const elected = rows.find((r) => r.cluster_manager === '*')?.name ?? null;
  const baselineUnassigned = h.status === 'green' ? 0 : (h.unassigned_shards ?? 0);
  const problems: string[] = [];
  const why = unmet(h, { allowYellow, dataNodes: dataNodeCount(clusterReport.nodes), baselineUnassigned });
  if (why)
    problems.push(why + (h.status === 'yellow' && !allowYellow ? ' (--allow-yellow accepts a settled yellow)' : ''));
  for (const host of restartHosts) {
    const n = clusterReport.nodes.find((x) => x.host === host);
    if (!n || !n.roles.some((r) => r === 'cluster_manager' || r === 'master')) continue;
    if (!rows.some((r) => r.name === n.name || r.ip === n.address))
      problems.push(`master-eligible node ${n.name ?? host} is not in the cluster`);
  }
  return { ok: problems.length === 0, why: problems.join('; '), elected, baselineUnassigned };
}
