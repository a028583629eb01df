/** The -i sources and vault options of a command, read into one inventory. */
import { ansibleSettings } from './ansiblecfg.ts';
import { resolve } from 'node:path';
import { loadInventory, resolveInventoryPath } from './load.ts';
import type { Inventory } from './types.ts';
import { vaultSecrets, type VaultIo, type VaultOptions } from './vaultpass.ts';

export interface InventoryOptions extends VaultOptions {
  inventory?: string[] | string;
  /** --playbook-dir: group_vars/ and host_vars/ read beside it too (default: playbook_dir of Ansible's settings, else the working directory). */
  playbookDir?: string;
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

/** The sources read with the vault passwords and Ansible settings (environment, then the ansible.cfg Ansible finds). */
export async function openInventory(opts: InventoryOptions, io: VaultIo): Promise<Inventory> {
  const sources = inventorySources(opts.inventory, io.cwd, io.env);
  const settings = ansibleSettings(io.cwd, io.env);
  const warned: string[] = [];
  const secrets = await vaultSecrets(opts, { ...io, settings, warn: (m) => warned.push(m) });
  // as ansible-inventory: its --playbook-dir, else the setting, else the directory it runs in
  const playbookDir = opts.playbookDir ? resolve(io.cwd, opts.playbookDir) : (settings.playbookDir ?? io.cwd);
  const inv = await loadInventory(sources, { secrets, env: io.env, settings, playbookDir });
  if (warned.length)
    inv.warnings = [
      ...warned.map((message) => ({
        code: 'vault-password' as const,
        message,
        pos: { file: settings.file ?? 'environment' },
      })),
      ...(inv.warnings ?? []),
    ];
  return inv;
}
