/** The one place `migrate` touches the inventory: the clusters of the selected hosts, each with its API. */

import { UsageError } from '../base/errors.ts';
import { accessOf, openFleet, type ReachDeps } from '../reach/index.ts';
import type { ClusterApi } from '../cluster/types.ts';
import { selectHosts } from '../inventory/select.ts';
import { openInventory, type InventoryOptions } from '../inventory/open.ts';
import { DEFAULT_MACROS_INDEX, MACROS_INDEX_VAR } from './providers.ts';

export interface ClusterTarget {
  api: ClusterApi;
  macrosIndex: string;
  /** Merged inventory variables of the cluster's first host (where per-cluster settings such as index names live). */
  vars: Record<string, unknown>;
  /** The inventory hosts of this cluster (they select it with --limit). */
  hosts?: string[];
}

export type TargetOptions = InventoryOptions & {
  limit?: string;
  /** Seconds per remote command and REST request (the CLI's --timeout). */
  timeout: number;
  sshConfig?: string;
  jumpChannels?: number;
};

/** Where the inventory's vault password is asked, when it is (the command line's prompt), and what tests replace. */
export interface TargetIo {
  ask?: (prompt: string) => Promise<string>;
  deps?: Partial<ReachDeps>;
}

/** Every cluster the selected hosts belong to, each with its API opened (not yet contacted). */
export async function openClusters(
  opts: TargetOptions,
  cwd: string,
  env: NodeJS.ProcessEnv,
  warn: (m: string) => void,
  io: TargetIo = {},
): Promise<ClusterTarget[]> {
  const inv = await openInventory(opts, { cwd, env, ...(io.ask ? { ask: io.ask } : {}) });
  const hosts = selectHosts(inv, opts.limit);
  const fleet = openFleet({
    inventory: inv,
    hosts,
    access: accessOf(opts, cwd),
    timeout: opts.timeout,
    env,
    warn,
    ...(io.deps ? { deps: io.deps } : {}),
  });
  if (fleet.clusters.length === 0) throw new UsageError(`no host of ${inv.file} matches ${opts.limit ?? 'all'}`);
  try {
    return fleet.clusters.map((c) => {
      const first = c.hosts[0]!;
      // the host's own variables object: copying it would work out every template, read or not
      const vars: Record<string, unknown> = inv.hosts.get(first)?.vars ?? {};
      const v = vars[MACROS_INDEX_VAR];
      const macrosIndex = typeof v === 'string' && v !== '' ? v : DEFAULT_MACROS_INDEX;
      return { api: fleet.api(c.apiUrl), macrosIndex, vars, hosts: [...c.hosts] };
    });
  } catch (err) {
    await fleet.close();
    throw err;
  }
}

/** Exactly one cluster (library callers and tests that mean one). */
export async function openCluster(
  opts: TargetOptions,
  cwd: string,
  env: NodeJS.ProcessEnv,
  warn: (m: string) => void,
  io: TargetIo = {},
): Promise<ClusterTarget> {
  const targets = await openClusters(opts, cwd, env, warn, io);
  if (targets.length > 1) {
    await Promise.all(targets.map((t) => t.api.close().catch(() => undefined)));
    const list = targets.map((c) => `${c.api.url} (${c.hosts!.join(', ')})`).join('; ');
    throw new UsageError(`the inventory holds ${targets.length} clusters: choose one with --limit: ${list}`);
  }
  return targets[0];
}
