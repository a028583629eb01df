/**
 * The lab's hook into the CLI: while `smdoctor lab up` runs in ./.lab, its inventory is the default.
 * Order: -i FILE, then SMDOCTOR_INVENTORY, then the running lab here; the inventory code knows none of the lab.
 */
import { join } from 'node:path';
import type { CliContext } from './context.ts';
import { importLab } from './lab-package.ts';
import { DEFAULTS } from '../base/defaults.ts';

export async function withLabDefault<O extends { inventory?: string[] }>(ctx: CliContext, opts: O): Promise<O> {
  if (opts.inventory?.length || ctx.env.SMDOCTOR_INVENTORY) return opts;
  // where the lab package is not installed, no lab runs here
  const lab = (await importLab('default'))?.upLabInventory(join(ctx.cwd, DEFAULTS.labDir));
  return lab ? { ...opts, inventory: [lab] } : opts;
}
