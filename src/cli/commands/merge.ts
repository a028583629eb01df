/** `smdoctor merge A.json B.json …`: the shards' audit reports as one, with the exit code one run would have given. */
import { resolve } from 'node:path';
import { auditOutcome } from '../../facts/outcome.ts';
import { mergeReports } from '../../report/merge.ts';
import { escapeControls, redactText } from '../../text/index.ts';
import { renderReport } from '../../report/render.ts';
import { effectiveFormat, emit, type CliContext } from '../context.ts';
import { type Format } from '../../report/formats.ts';
import { readReport } from '../history.ts';

export async function runMerge(ctx: CliContext, files: string[], o: Record<string, unknown>): Promise<number> {
  const inputs = [];
  for (const f of files) {
    const file = resolve(ctx.cwd, f);
    inputs.push({ file, report: await readReport(file) });
  }
  const merged = mergeReports(inputs);
  const output = typeof o.output === 'string' ? o.output : undefined;
  const format = effectiveFormat(ctx, o.format as Format | undefined, output);
  await emit(ctx, renderReport(merged, format, { color: false }), output);
  const outcome = auditOutcome(merged);
  for (const r of outcome.reasons) ctx.stderr.write(`smdoctor: incomplete: ${escapeControls(redactText(r))}\n`);
  return outcome.code;
}
