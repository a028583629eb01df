/** `smdoctor merge A.json B.json …`: the shards' audit reports as one, with the exit code one run would have given. */
import { resolve } from 'node:path';
import { auditOutcome } from '../../facts/outcome.ts';
import { mergeReports } from '../../report/merge.ts';
import { renderReport } from '../../report/render.ts';
import { effectiveFormat, emit, sayTo, type CliContext } from '../context.ts';
import { mergeArgs, type Flags } from '../args.ts';
import { readReport } from '../history.ts';

export async function runMerge(ctx: CliContext, files: string[], flags: Flags): Promise<number> {
  const o = mergeArgs(flags);
  const inputs = [];
  for (const f of files) {
    const file = resolve(ctx.cwd, f);
    inputs.push({ file, report: await readReport(file) });
  }
  const merged = mergeReports(inputs);
  const format = effectiveFormat(ctx, o.format, o.output);
  await emit(ctx, renderReport(merged, format, { color: false }), o.output);
  const outcome = auditOutcome(merged);
  for (const r of outcome.reasons) sayTo(ctx.stderr)(r.text, 'incomplete');
  return outcome.code;
}
