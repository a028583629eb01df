/** What a fleet session opens with: resolving a host and its cluster, an SSH session, a REST client. Tests replace them. */
import { connectTransport, type ConnectOptions } from '../transport/connect.ts';
import { createClusterApi, type ClusterApiOptions } from '../cluster/client.ts';
import type { ClusterApi } from '../cluster/types.ts';
import type { ClusterGroup, Inventory } from '../inventory/types.ts';
import type { Transport } from '../transport/types.ts';
import type { JumpPool } from '../transport/jump-pool.ts';
import { reachClusters, reachHost } from './host.ts';
import { apiTarget, sshTarget, type ApiTargetOptions } from './targets.ts';
import type { AccessOptions, ReachHost } from './types.ts';

/** An SSH session (or a local one) to an inventory host. */
export const connectHost = (cfg: ReachHost, o: ConnectOptions): Promise<Transport> =>
  connectTransport(sshTarget(cfg), o);

/** The REST client of an inventory host's cluster; under api_via_ssh, tunnelled through o.tunnelHosts (or the host). */
export const openClusterApi = (cfg: ReachHost, o: ClusterApiOptions & ApiTargetOptions): ClusterApi =>
  createClusterApi(apiTarget(cfg, o), o);

export interface ReachDeps {
  hostConfig(inv: Inventory, name: string, env?: NodeJS.ProcessEnv, access?: AccessOptions): ReachHost;
  clustersOf(inv: Inventory, hosts: string[], env?: NodeJS.ProcessEnv, access?: AccessOptions): ClusterGroup[];
  /** `jumps`: the run's jump connections, which the fleet session hands to every connection and tunnel. */
  connect(
    cfg: ReachHost,
    o: { timeout: number; env?: NodeJS.ProcessEnv; warn?: (m: string) => void; jumps?: JumpPool },
  ): Promise<Transport>;
  api(
    cfg: ReachHost,
    o: {
      env?: NodeJS.ProcessEnv;
      warn?: (m: string) => void;
      requestTimeout: number;
      tunnelHosts?: ReachHost[];
      jumps?: JumpPool;
      maxSockets?: number;
      keepAnswers?: boolean;
    },
  ): ClusterApi;
}

export const reachDeps: ReachDeps = {
  hostConfig: reachHost,
  clustersOf: reachClusters,
  connect: connectHost,
  api: openClusterApi,
};
