/** The -i sources and vault options of a command, read into one inventory. */
import { loadInventory, resolveInventoryPath } from './load.ts';
import type { Inventory } from './types.ts';
import { vaultSecrets, type VaultIo, type VaultOptions } from './vaultpass.ts';

export interface InventoryOptions extends VaultOptions {
  inventory?: string[] | string;
}

/** Every -i given (in order), else the default inventory. */
export function inventorySources(opt: string[] | string | undefined, cwd: string): string[] {
  const list = opt === undefined ? [] : Array.isArray(opt) ? opt : [opt];
  return list.length ? list.map((s) => resolveInventoryPath(s, cwd)) : [resolveInventoryPath(undefined, cwd)];
}

export async function openInventory(opts: InventoryOptions, io: VaultIo): Promise<Inventory> {
  const sources = inventorySources(opts.inventory, io.cwd);
  const secrets = await vaultSecrets(opts, io);
  return loadInventory(sources, { secrets, env: io.env });
}
