import { UsageError } from '../../base/errors.ts';
import { effectiveFormat, type CliContext, type CommonOptions } from '../context.ts';
import { readQuery } from '../../migrate/query.ts';
import { migrateExplainArgs } from '../args.ts';

export async function runMigrate(
  ctx: CliContext,
  sub: 'explain' | 'jobs' | 'dashboards',
  flags: CommonOptions & Record<string, unknown>,
  query?: string,
): Promise<number> {
  if (sub !== 'explain') {
    const { runStored } = await import('./migrate-stored.ts');
    return runStored(ctx, sub, flags);
  }
  const opts = migrateExplainArgs(flags);
  const format = effectiveFormat(ctx, opts.format, opts.output);
  if (format === 'junit' || format === 'html' || format === 'prometheus')
    throw new UsageError(`--format ${format} is not supported for migrate explain: use text, json or markdown`);
  const text = await readQuery({ arg: query, file: opts.file, stdin: ctx.stdin, cwd: ctx.cwd });

  const { runExplain } = await import('./migrate-explain.ts');
  return runExplain(ctx, text, opts, format);
}
