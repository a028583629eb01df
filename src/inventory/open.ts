/** The -i sources, vault and SSH access options of a command, read into one inventory. */
import { resolve } from 'node:path';
import { ansibleSettings } from './ansiblecfg.ts';
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

/** The sources read with the vault passwords and Ansible settings (environment, then the ansible.cfg Ansible finds). */
export async function openInventory(opts: InventoryOptions, io: VaultIo): Promise<Inventory> {
  const sources = inventorySources(opts.inventory, io.cwd, io.env);
  const settings = ansibleSettings(io.cwd, io.env);
  const warned: string[] = [];
  const secrets = await vaultSecrets(opts, { ...io, settings, warn: (m) => warned.push(m) });
  const inv = await loadInventory(sources, { secrets, env: io.env, settings });
  inv.access = accessOf(opts, io.cwd);
  if (warned.length)
    inv.warnings = [
      ...warned.map((message) => ({ message, pos: { file: settings.file ?? 'environment' } })),
      ...(inv.warnings ?? []),
    ];
  return inv;
}
