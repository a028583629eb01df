/** `smdoctor migrate explain`: the answers printed, the exit code decided from them. */

import { EXIT, UsageError } from '../../base/errors.ts';
import { readQuery } from '../../migrate/query.ts';
import { exitCodeOf } from '../../migrate/explain.ts';
import {
  explainFiles,
  explainFleet,
  explainLocal,
  needsCluster,
  renderAnswers,
  type Answer,
  type MigrateFormat,
} from '../../migrate/explain-run.ts';
import { runIo } from '../open-inventory.ts';
import { migrateExplainArgs, type MigrateExplainArgs } from '../args.ts';
import { effectiveFormat, emit, sayTo, type CliContext } from '../context.ts';

/** 3 when a cluster failed or local and service differ; otherwise what the explanation says. */
function exitOf(a: Answer): number {
  if (a.error || (a.differences && a.differences.length)) return EXIT.incomplete;
  return exitCodeOf(a.explanation ?? a.local!);
}

export async function runMigrateExplain(
  ctx: CliContext,
  flags: Partial<MigrateExplainArgs>,
  query?: string,
): Promise<number> {
  const opts = migrateExplainArgs(flags);
  const format = effectiveFormat(ctx, opts.format, opts.output);
  if (format === 'junit' || format === 'html' || format === 'prometheus')
    throw new UsageError(`--format ${format} is not supported for migrate explain: use text, json or markdown`);
  const text = await readQuery({ arg: query, file: opts.file, stdin: ctx.stdin, cwd: ctx.cwd });
  return runExplain(ctx, text, opts, format);
}

async function runExplain(
  ctx: CliContext,
  text: string,
  opts: MigrateExplainArgs,
  format: MigrateFormat,
): Promise<number> {
  const source = opts.source;
  const files = await explainFiles(opts.mappings, opts.macros, ctx.cwd);
  const tty = Boolean(ctx.stdout.isTTY) && !opts.output;
  if (!needsCluster(source, files)) {
    const a = await explainLocal(text, files);
    await emit(ctx, renderAnswers(text, [a], format, tty, false), opts.output);
    return exitOf(a);
  }
  // only what no file gives is read from the cluster; the inventory code loads only then
  const { openClusters } = await import('../../migrate/cluster.ts');
  const targets = await openClusters(opts, ctx.cwd, ctx.env, (m) => sayTo(ctx.stderr)(`warning: ${m}`), runIo(ctx));
  try {
    const answers = await explainFleet(text, source, files, targets);
    await emit(ctx, renderAnswers(text, answers, format, tty, targets.length > 1), opts.output);
    return Math.max(...answers.map(exitOf));
  } finally {
    await Promise.all(targets.map((t) => t.api.close().catch(() => undefined)));
  }
}
