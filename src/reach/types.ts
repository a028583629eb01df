import type { HostConfig } from '../inventory/types.ts';
import type { SshRoute } from '../transport/types.ts';
import type { RouteCache } from './route-cache.ts';

/** An inventory host with the OpenSSH route that reaches it, once its configuration is resolved (see host.ts). */
export type ReachHost = HostConfig & { ssh?: SshRoute };

/** How the fleet is reached beyond the inventory: the command line's --ssh-config and --jump-channels. */
export interface AccessOptions {
  /** The working directory ssh would run in: relative IdentityFile and UserKnownHostsFile paths are opened from it. */
  cwd?: string;
  /** --ssh-config FILE, absolute. */
  sshConfigFile?: string;
  /** --jump-channels N: channels open at once on each jump host. */
  jumpChannels?: number;
  /** The run's `ssh -G` answers and jump connections; without one, a fleet session keeps its own. */
  routes?: RouteCache;
}
