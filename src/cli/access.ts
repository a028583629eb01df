/** --ssh-config and --jump-channels, carried on the inventory to every host's configuration. */
import { resolve } from 'node:path';
import type { AccessOptions } from '../inventory/types.ts';

export function accessOf(opts: Record<string, unknown>, cwd: string): AccessOptions {
  return {
    ...(typeof opts.sshConfig === 'string' ? { sshConfigFile: resolve(cwd, opts.sshConfig) } : {}),
    ...(typeof opts.jumpChannels === 'number' ? { jumpChannels: opts.jumpChannels } : {}),
  };
}
