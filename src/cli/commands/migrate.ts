import { SmdoctorError } from '../../errors.ts';
import type { CliContext, CommonOptions } from '../context.ts';

export async function runMigrate(
  _ctx: CliContext,
  sub: 'explain' | 'jobs' | 'dashboards',
  _opts: CommonOptions & Record<string, unknown>,
  _query?: string,
): Promise<number> {
  throw new SmdoctorError('NOT_IMPLEMENTED', `migrate ${sub} is not built yet`);
}
