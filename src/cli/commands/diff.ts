/** `smdoctor diff OLD NEW` or `diff --history DIR`: regressions between two reports; exit 1 on one, 2 when not comparable. */
import { resolve } from 'node:path';
import { UsageError } from '../../base/errors.ts';
import { compareReports, diffExitCode, renderDiffJson, renderDiffMarkdown, renderDiffText } from '../../report/diff.ts';
import { escapeControls, redactDeep } from '../../text/index.ts';
import { effectiveFormat, emit, sayTo, type CliContext } from '../context.ts';
import { readReport, trustedHistory } from '../history.ts';
import { diffArgs, type DiffArgs } from '../args.ts';

async function twoFiles(
  ctx: CliContext,
  oldFile?: string,
  newFile?: string,
  history?: string,
): Promise<[string, string]> {
  if (history !== undefined) {
    if (oldFile || newFile) throw new UsageError('diff: give two reports or --history DIR, not both');
    const dir = resolve(ctx.cwd, history);
    const warn = (m: string): void => sayTo(ctx.stderr).raw(`smdoctor: warning: ${escapeControls(m)}\n`);
    const kept = await trustedHistory(dir, ['audit', 'fix'], warn);
    if (kept.length < 2)
      throw new UsageError(
        `diff --history ${dir}: ${kept.length} audit or fix report${kept.length === 1 ? '' : 's'} kept there; two are needed (run audit --history ${history})`,
      );
    return [kept.at(-2)!.file, kept.at(-1)!.file];
  }
  if (!oldFile || !newFile) throw new UsageError('diff: give two JSON reports (OLD NEW), or --history DIR');
  return [resolve(ctx.cwd, oldFile), resolve(ctx.cwd, newFile)];
}

export async function runDiff(
  ctx: CliContext,
  oldFile: string | undefined,
  newFile: string | undefined,
  flags: Partial<DiffArgs>,
): Promise<number> {
  const o = diffArgs(flags);
  const [a, b] = await twoFiles(ctx, oldFile, newFile, o.history);
  const cmp = compareReports(redactDeep(await readReport(a)), redactDeep(await readReport(b)));
  const format = effectiveFormat(ctx, o.format, o.output);
  const render = format === 'json' ? renderDiffJson : format === 'markdown' ? renderDiffMarkdown : renderDiffText;
  await emit(ctx, render(cmp), o.output);
  if (!cmp.comparable) sayTo(ctx.stderr).raw(`smdoctor: ${a} and ${b} are not comparable\n`);
  return diffExitCode(cmp);
}
