import { UsageError, InputError, posText } from '../../base/errors.ts';
import { emit, sayTo, type CliContext } from '../context.ts';
import { graphText, hostJson, listJson } from '../../inventory/render.ts';
import { selectHosts } from '../../inventory/select.ts';
import { commandInventory } from '../open-inventory.ts';
import { inventoryArgs, type InventoryArgs } from '../args.ts';

/** `smdoctor inventory --list | --graph | --host NAME`, like ansible-inventory (secrets redacted). */
export async function runInventory(ctx: CliContext, flags: Partial<InventoryArgs>): Promise<number> {
  const opts = inventoryArgs(flags);
  const modes = (['list', 'graph', 'host'] as const).filter((m) => opts[m] !== undefined && opts[m] !== false);
  if (modes.length !== 1) throw new UsageError('inventory: give exactly one of --list, --graph or --host NAME');
  const inv = await commandInventory(ctx, opts);
  for (const w of inv.warnings ?? []) {
    sayTo(ctx.stderr)(`warning: ${posText(w.pos)}: ${w.message}`);
  }
  if (modes[0] === 'host') {
    const name = opts.host!;
    if (!inv.hosts.has(name)) throw new InputError(`no host '${name}' in ${inv.file}`);
    await emit(ctx, hostJson(inv, name), opts.output);
    return 0;
  }
  // groups without hosts (every host line commented out) are listed, as ansible-inventory lists them
  const hosts = inv.hosts.size || opts.limit !== undefined ? selectHosts(inv, opts.limit) : [];
  await emit(ctx, modes[0] === 'list' ? listJson(inv, hosts, ctx.env) : graphText(inv, hosts), opts.output);
  return 0;
}
