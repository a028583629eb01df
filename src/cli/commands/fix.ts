import { SmdoctorError } from '../../errors.ts';
import type { CliContext, CommonOptions } from '../context.ts';

export async function runFix(_ctx: CliContext, _opts: CommonOptions & Record<string, unknown>): Promise<number> {
  throw new SmdoctorError('NOT_IMPLEMENTED', 'fix is not built yet: run `smdoctor audit` for the plan');
}
