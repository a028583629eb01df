/** Which hosts may carry a cluster's API under api_via_ssh: the named one, else the cluster's hosts in order. */
import type { HostConfig } from '../inventory/types.ts';

export function tunnelHostsFor(
  first: HostConfig,
  cluster: HostConfig[],
  byName: (name: string) => HostConfig,
): HostConfig[] | undefined {
  if (!first.apiViaSsh) return undefined;
  if (typeof first.apiViaSsh === 'string') return [byName(first.apiViaSsh)];
  return cluster.filter((c) => c.connection === 'ssh');
}
