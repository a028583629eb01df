import { UsageError } from '../../base/errors.ts';
import { effectiveFormat, type CliContext, type CommonOptions } from '../context.ts';
import { readQuery } from '../../migrate/query.ts';

export async function runMigrate(
  ctx: CliContext,
  sub: 'explain' | 'jobs' | 'dashboards',
  opts: CommonOptions & Record<string, unknown>,
  query?: string,
): Promise<number> {
  if (sub !== 'explain') {
    const { runStored } = await import('./migrate-stored.ts');
    return runStored(ctx, sub, opts);
  }
  const format = effectiveFormat(ctx, opts.format, opts.output);
  if (format === 'junit' || format === 'html' || format === 'prometheus')
    throw new UsageError(`--format ${format} is not supported for migrate explain: use text, json or markdown`);
  const str = (k: string) => (typeof opts[k] === 'string' ? (opts[k] as string) : undefined);
  const text = await readQuery({ arg: query, file: str('file'), stdin: ctx.stdin, cwd: ctx.cwd });

  const { runExplain } = await import('./migrate-explain.ts');
  return runExplain(ctx, text, opts, format);
}
