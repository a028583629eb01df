/** The one place `migrate` touches the inventory: the clusters of the selected hosts, each with its API. */

import { UsageError } from '../errors.ts';
import {
  openClusterApi as createClusterApi,
  reachClusters as clustersOf,
  reachHost as hostConfig,
} from '../reach/index.ts';
import type { ClusterApi } from '../cluster/types.ts';
import { selectHosts } from '../inventory/index.ts';
import { openInventory, type InventoryOptions } from '../inventory/open.ts';
import { terminalAsk } from '../inventory/vaultpass.ts';
import { DEFAULT_MACROS_INDEX, MACROS_INDEX_VAR } from './providers.ts';

export interface ClusterTarget {
  api: ClusterApi;
  macrosIndex: string;
  /** Merged inventory variables of the cluster's first host (where per-cluster settings such as index names live). */
  vars: Record<string, unknown>;
  /** The inventory hosts of this cluster (they select it with --limit). */
  hosts?: string[];
}

export type TargetOptions = InventoryOptions & { limit?: string; timeout?: number };

/** Every cluster the selected hosts belong to, each with its API opened (not yet contacted). */
export async function openClusters(
  opts: TargetOptions,
  cwd: string,
  env: NodeJS.ProcessEnv,
  warn: (m: string) => void,
): Promise<ClusterTarget[]> {
  const ask = terminalAsk(process.stdin, process.stderr);
  const inv = await openInventory(opts, { cwd, env, ...(ask ? { ask } : {}) });
  const hosts = selectHosts(inv, opts.limit);
  const clusters = clustersOf(inv, hosts, env);
  if (clusters.length === 0) throw new UsageError(`no host of ${inv.file} matches ${opts.limit ?? 'all'}`);
  const targets: ClusterTarget[] = [];
  try {
    for (const c of clusters) {
      const first = c.hosts[0];
      const cfg = hostConfig(inv, first, env);
      // the host's own variables object: copying it would work out every template, read or not
      const vars: Record<string, unknown> = inv.hosts.get(first)?.vars ?? {};
      const v = vars[MACROS_INDEX_VAR];
      const macrosIndex = typeof v === 'string' && v !== '' ? v : DEFAULT_MACROS_INDEX;
      const api = createClusterApi(cfg, { env, warn, requestTimeout: (opts.timeout ?? 60) * 1000 });
      targets.push({ api, macrosIndex, vars, hosts: [...c.hosts] });
    }
  } catch (err) {
    await Promise.all(targets.map((t) => t.api.close().catch(() => undefined)));
    throw err;
  }
  return targets;
}

/** Exactly one cluster (library callers and tests that mean one). */
export async function openCluster(
  opts: TargetOptions,
  cwd: string,
  env: NodeJS.ProcessEnv,
  warn: (m: string) => void,
): Promise<ClusterTarget> {
  const targets = await openClusters(opts, cwd, env, warn);
  if (targets.length > 1) {
    await Promise.all(targets.map((t) => t.api.close().catch(() => undefined)));
    const list = targets.map((c) => `${c.api.url} (${c.hosts!.join(', ')})`).join('; ');
    throw new UsageError(`the inventory holds ${targets.length} clusters: choose one with --limit: ${list}`);
  }
  return targets[0];
}
