/**
 * How audit and fix reach a fleet: an inventory host's settings, its cluster, an SSH session, a REST client.
 * Loaded lazily by both, so that tests can inject fakes instead and --help loads none of ssh2 or the REST client.
 */
import { clustersOf, hostConfig } from '../inventory/index.ts';
import { connectTransport } from '../transport/index.ts';
import { createClusterApi } from '../cluster/client.ts';
import type { ClusterApi } from '../cluster/types.ts';
import type { ClusterGroup, HostConfig, Inventory } from '../inventory/types.ts';
import type { Transport } from '../transport/types.ts';

export interface ReachDeps {
  hostConfig(inv: Inventory, name: string, env?: NodeJS.ProcessEnv): HostConfig;
  clustersOf(inv: Inventory, hosts: string[]): ClusterGroup[];
  connect(
    cfg: HostConfig,
    o: { timeout: number; env?: NodeJS.ProcessEnv; warn?: (m: string) => void },
  ): Promise<Transport>;
  api(
    cfg: HostConfig,
    o: { env?: NodeJS.ProcessEnv; warn?: (m: string) => void; requestTimeout?: number; tunnelHosts?: HostConfig[] },
  ): ClusterApi;
}

export const reachDeps: ReachDeps = {
  hostConfig,
  clustersOf,
  connect: (cfg, o) => connectTransport(cfg, o),
  api: (cfg, o) => createClusterApi(cfg, o),
};
