/** A host as audit, fix and the migration reach it: the inventory's settings with OpenSSH's configuration applied. */
import { clustersOf } from '../inventory/clusters.ts';
import { hostForUrl, hostConfig } from '../inventory/hostconfig.ts';
import type { ClusterGroup, Inventory } from '../inventory/types.ts';
import { applySshAccess } from './ssh-access.ts';
import type { AccessOptions, ReachHost } from './types.ts';

/** The inventory's settings of `name`; for an SSH host, its OpenSSH configuration and ssh arguments applied. */
export function reachHost(
  inv: Inventory,
  name: string,
  env: NodeJS.ProcessEnv = {},
  access: AccessOptions = {},
): ReachHost {
  const cfg = hostConfig(inv, name, env);
  if (cfg.connection !== 'ssh') return cfg;
  const vars = inv.hosts.get(name)!.vars;
  const out = applySshAccess(cfg, vars, inv, env, access);
  // the default API address follows the ssh configuration's HostName
  const url = vars.api_url;
  if (url === undefined || url === null || url === '') out.apiUrl = `https://${hostForUrl(out.address)}:9200`;
  return out;
}

/** The inventory's clusters, the default api_url following each host's resolved address. */
export function reachClusters(
  inv: Inventory,
  hosts: string[],
  env?: NodeJS.ProcessEnv,
  access: AccessOptions = {},
): ClusterGroup[] {
  return clustersOf(inv, hosts, env, (h) => reachHost(inv, h, env, access).apiUrl);
}
