/** `smdoctor merge A.json B.json …`: the shards' audit reports as one, with the exit code one run would have given. */
import { resolve } from 'node:path';
import { auditOutcome } from '../../facts/outcome.ts';
import { mergeReports } from '../../report/merge.ts';
import { renderReport } from '../../report/render.ts';
import { effectiveFormat, emit, sayTo, type CliContext } from '../context.ts';
import { mergeArgs, type MergeArgs } from '../args.ts';
import { readReport } from '../history.ts';
import { UsageError } from '../../base/errors.ts';
import { SEVERITIES } from '../../model/index.ts';
import { counts, parseSeverity } from '../../packs/index.ts';

export async function runMerge(ctx: CliContext, files: string[], flags: Partial<MergeArgs>): Promise<number> {
  const o = mergeArgs(flags);
  // the shards' own --severity: a run's exit code counts only the checks at or above it
  const severity = o.severity === undefined ? undefined : parseSeverity(o.severity);
  if (o.severity !== undefined && !severity)
    throw new UsageError(`--severity: '${o.severity}' is not one of ${SEVERITIES.join(', ')}`);
  const inputs = [];
  for (const f of files) {
    const file = resolve(ctx.cwd, f);
    inputs.push({ file, report: await readReport(file) });
  }
  const merged = mergeReports(inputs);
  const format = effectiveFormat(ctx, o.format, o.output);
  await emit(ctx, renderReport(merged, format, { color: false }), o.output);
  const outcome = auditOutcome(merged, (k) => counts(k, severity));
  for (const r of outcome.reasons) sayTo(ctx.stderr)(r.text, 'incomplete');
  return outcome.code;
}
