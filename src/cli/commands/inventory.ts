import { SmdoctorError } from '../../errors.ts';
import type { CliContext, CommonOptions } from '../context.ts';

export async function runInventory(_ctx: CliContext, _opts: CommonOptions & Record<string, unknown>): Promise<number> {
  throw new SmdoctorError('NOT_IMPLEMENTED', 'inventory is not built yet');
}
