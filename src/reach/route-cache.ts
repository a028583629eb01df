/**
 * What a run learns and opens on the way to its SSH hosts: each host's `ssh -G` answer and the jump connections. One
 * per run (one per serve reload), passed down through the access options and dropped with it: an edited ssh_config is
 * read again by the next run, or after a SIGHUP to serve.
 */
import { jumpPool, type JumpPool } from '../transport/jump-pool.ts';
import type { SshResolutions } from '../transport/ssh-config.ts';

export interface RouteCache {
  readonly resolutions: SshResolutions;
  readonly jumps: JumpPool;
  /** Dropped (a serve reload): nothing is asked again of it, its jump connections close once no target holds them. */
  retire(): void;
  /** Closes every jump connection now (the end of the run). */
  close(): Promise<void>;
}

export function newRouteCache(): RouteCache {
  const resolutions: SshResolutions = new Map();
  const jumps = jumpPool();
  return {
    resolutions,
    jumps,
    retire: () => {
      resolutions.clear();
      jumps.retire();
    },
    close: () => jumps.close(),
  };
}
