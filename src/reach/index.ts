/**
 * How audit and fix reach a fleet: an inventory host's settings, its cluster, an SSH session, a REST client.
 * Loaded lazily by both, so that tests can inject fakes instead and --help loads none of ssh2 or the REST client.
 * The inventory, the transport and the REST client know nothing of each other: this module maps one onto the others.
 */
import { connectTransport, type ConnectOptions } from '../transport/index.ts';
import { createClusterApi, type ClusterApiOptions } from '../cluster/client.ts';
import type { ClusterApi } from '../cluster/types.ts';
import type { ClusterGroup, Inventory } from '../inventory/types.ts';
import type { Transport } from '../transport/types.ts';
import { reachClusters, reachHost } from './host.ts';
import { apiTarget, sshTarget, type ApiTargetOptions } from './targets.ts';
import type { ReachHost } from './types.ts';

export type { ReachHost } from './types.ts';
export { reachClusters, reachHost } from './host.ts';
export { apiTarget, sshTarget, type ApiTargetOptions } from './targets.ts';
export { openTunnel } from './tunnel.ts';

/** An SSH session (or a local one) to an inventory host. */
export const connectHost = (cfg: ReachHost, o: ConnectOptions): Promise<Transport> =>
  connectTransport(sshTarget(cfg), o);

/** The REST client of an inventory host's cluster; under api_via_ssh, tunnelled through o.tunnelHosts (or the host). */
export const openClusterApi = (cfg: ReachHost, o: ClusterApiOptions & ApiTargetOptions = {}): ClusterApi =>
  createClusterApi(apiTarget(cfg, o), o);

export interface ReachDeps {
  hostConfig(inv: Inventory, name: string, env?: NodeJS.ProcessEnv): ReachHost;
  clustersOf(inv: Inventory, hosts: string[]): ClusterGroup[];
  connect(
    cfg: ReachHost,
    o: { timeout: number; env?: NodeJS.ProcessEnv; warn?: (m: string) => void },
  ): Promise<Transport>;
  api(
    cfg: ReachHost,
    o: { env?: NodeJS.ProcessEnv; warn?: (m: string) => void; requestTimeout?: number; tunnelHosts?: ReachHost[] },
  ): ClusterApi;
}

export const reachDeps: ReachDeps = {
  hostConfig: reachHost,
  clustersOf: (inv, hosts) => reachClusters(inv, hosts),
  connect: connectHost,
  api: openClusterApi,
};
