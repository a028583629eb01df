/** The -i sources, vault and SSH access options of a command, read into one inventory. */
import { resolve } from 'node:path';
import { loadInventory, resolveInventoryPath } from './load.ts';
import type { AccessOptions, Inventory } from './types.ts';
import { vaultSecrets, type VaultIo, type VaultOptions } from './vaultpass.ts';

export interface InventoryOptions extends VaultOptions {
  inventory?: string[] | string;
  sshConfig?: string;
  jumpChannels?: number;
}

/** Every -i given (in order), else the default inventory. */
export function inventorySources(
  opt: string[] | string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): string[] {
  const list = opt === undefined ? [] : Array.isArray(opt) ? opt : [opt];
  return list.length ? list.map((s) => resolveInventoryPath(s, cwd)) : [resolveInventoryPath(undefined, cwd, env)];
}

/** --ssh-config and --jump-channels, carried on the inventory to every host's configuration. */
export function accessOf(opts: InventoryOptions, cwd: string): AccessOptions {
  return {
    ...(typeof opts.sshConfig === 'string' ? { sshConfigFile: resolve(cwd, opts.sshConfig) } : {}),
    ...(typeof opts.jumpChannels === 'number' ? { jumpChannels: opts.jumpChannels } : {}),
  };
}

export async function openInventory(opts: InventoryOptions, io: VaultIo): Promise<Inventory> {
  const sources = inventorySources(opts.inventory, io.cwd, io.env);
  const secrets = await vaultSecrets(opts, io);
  const inv = await loadInventory(sources, { secrets, env: io.env });
  inv.access = accessOf(opts, io.cwd);
  return inv;
}
