/** A command's inventory: the -i sources and vault options, with a password prompt on a terminal. */
import { openInventory as open, type InventoryOptions } from '../inventory/open.ts';
import type { Inventory } from '../inventory/types.ts';
import { terminalAsk } from '../inventory/vaultpass.ts';
import type { CliContext } from './context.ts';

export function openInventory(ctx: CliContext, opts: InventoryOptions): Promise<Inventory> {
  const ask = terminalAsk(ctx.stdin as NodeJS.ReadStream, ctx.stderr);
  return open(opts, { cwd: ctx.cwd, env: ctx.env, ...(ask ? { ask } : {}) });
}
