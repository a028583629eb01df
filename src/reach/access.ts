/** The command line's access options, resolved against the working directory, for every host of a run. */
import { resolve } from 'node:path';
import type { AccessOptions } from './types.ts';
import type { RouteCache } from './route-cache.ts';

export function accessOf(
  opts: { sshConfig?: unknown; jumpChannels?: unknown },
  cwd: string,
  routes?: RouteCache,
): AccessOptions {
  return {
    cwd,
    ...(routes ? { routes } : {}),
    ...(typeof opts.sshConfig === 'string' ? { sshConfigFile: resolve(cwd, opts.sshConfig) } : {}),
    ...(typeof opts.jumpChannels === 'number' ? { jumpChannels: opts.jumpChannels } : {}),
  };
}
