import { SmdoctorError } from '../../errors.ts';
import type { CliContext } from '../context.ts';

export async function runLab(_ctx: CliContext, sub: 'up' | 'down' | 'status', _opts: Record<string, string>): Promise<number> {
  throw new SmdoctorError('NOT_IMPLEMENTED', `lab ${sub} is not built yet`);
}
