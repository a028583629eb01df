/** The last step of audit and fix: the report rendered (with past runs for HTML), written, and kept with --history. */
import { resolve } from 'node:path';
import { formatError } from '../base/errors.ts';
import type { Report } from '../model/index.ts';
import { renderReport } from '../report/render.ts';
import { emit, sayTo, textWidth, type CliContext } from './context.ts';
import { type Format } from '../report/formats.ts';
import { keepReport, recentReports } from './history.ts';

/** How many past runs the HTML report's strips show. */
const STRIP_RUNS = 10;

export interface Delivery {
  format: Format;
  color: boolean;
  /** performance.now() when the run began: the duration metric. */
  started: number;
}

/** Renders and writes the report; false when it could not be kept in --history (said on standard error). */
export async function deliver(
  ctx: CliContext,
  report: Report,
  opts: { history?: string; output?: string; historyKeep: number; verbose?: number },
  d: Delivery,
): Promise<boolean> {
  const dir = opts.history !== undefined ? resolve(ctx.cwd, opts.history) : undefined;
  const warn = (m: string): void => sayTo(ctx.stderr)(m, 'warning');
  // past runs only decorate the page: a history that cannot be read never costs the report (fix has already acted)
  const past =
    dir && d.format === 'html'
      ? await recentReports(dir, STRIP_RUNS - 1, warn).catch((e: unknown) => (warn(formatError(e)), []))
      : [];
  const text = renderReport(report, d.format, {
    color: d.color,
    verbose: (opts.verbose ?? 0) > 0,
    width: textWidth(ctx, ctx.stdout, opts.output),
    durationSeconds: (performance.now() - d.started) / 1000,
    ...(past.length ? { history: [...past, report] } : {}),
  });
  await emit(ctx, text, opts.output);
  if (!dir) return true;
  try {
    await keepReport(dir, report.mode, renderReport(report, 'json'), opts.historyKeep);
    return true;
  } catch (e) {
    sayTo(ctx.stderr)(formatError(e), `--history ${dir}: this report could not be kept`);
    return false;
  }
}
