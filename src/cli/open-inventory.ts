/** A command's inventory: the -i sources and vault options, with a password prompt on a terminal. */
import { openInventory as open, type InventoryOptions } from '../inventory/open.ts';
import type { Inventory } from '../inventory/types.ts';
import { terminalAsk } from '../inventory/vaultpass.ts';
import { layerDeps, type CliContext } from './context.ts';
import type { ReachDeps } from '../reach/index.ts';

export function commandInventory(ctx: CliContext, opts: InventoryOptions): Promise<Inventory> {
  return open(opts, { cwd: ctx.cwd, env: ctx.env, ...vaultPrompt(ctx) });
}

/** The vault password prompt, on a terminal only. */
export function vaultPrompt(ctx: CliContext): { ask?: (question: string) => Promise<string> } {
  const ask = terminalAsk(ctx.stdin as NodeJS.ReadStream, ctx.stderr);
  return ask ? { ask } : {};
}

/** What the migration's cluster opening takes of the run: the vault prompt and the reach entries a test replaced. */
export function runIo(ctx: CliContext): { ask?: (question: string) => Promise<string>; deps?: Partial<ReachDeps> } {
  return { ...vaultPrompt(ctx), ...layerDeps(ctx) };
}
