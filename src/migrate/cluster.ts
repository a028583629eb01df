/** The one place `migrate` touches the inventory: pick the single cluster and open its API. */

import { UsageError } from '../errors.ts';
import { createClusterApi } from '../cluster/client.ts';
import type { ClusterApi } from '../cluster/types.ts';
import { clustersOf, hostConfig, loadInventory, resolveInventoryPath, selectHosts } from '../inventory/index.ts';
import { DEFAULT_MACROS_INDEX, MACROS_INDEX_VAR } from './providers.ts';

export interface ClusterTarget {
  api: ClusterApi;
  macrosIndex: string;
  /** Merged inventory variables of the cluster's first host (where per-cluster settings such as index names live). */
  vars: Record<string, unknown>;
}

export async function openCluster(opts: { inventory?: string; limit?: string; timeout?: number }, cwd: string, env: NodeJS.ProcessEnv,
  warn: (m: string) => void): Promise<ClusterTarget> {
  const inv = await loadInventory(resolveInventoryPath(opts.inventory, cwd, env));
  const hosts = selectHosts(inv, opts.limit);
  const clusters = clustersOf(inv, hosts, env);
  if (clusters.length === 0) throw new UsageError(`no host of ${inv.file} matches ${opts.limit ?? 'all'}`);
  if (clusters.length > 1) {
    const list = clusters.map((c) => `${c.apiUrl} (${c.hosts.join(', ')})`).join('; ');
    throw new UsageError(`the inventory holds ${clusters.length} clusters: choose one with --limit: ${list}`);
  }
  const first = clusters[0].hosts[0];
  const cfg = hostConfig(inv, first, env);
  const vars: Record<string, unknown> = { ...(inv.hosts.get(first)?.vars ?? {}) };
  const v = vars[MACROS_INDEX_VAR];
  const macrosIndex = typeof v === 'string' && v !== '' ? v : DEFAULT_MACROS_INDEX;
  return { api: createClusterApi(cfg, { env, warn, requestTimeout: (opts.timeout ?? 60) * 1000 }), macrosIndex, vars };
}
