/** --pack, --waivers and --severity of every command that audits: read and checked before anything is reached. */
import { UsageError } from '../base/errors.ts';
import {
  CHECK_IDS,
  SEVERITIES,
  type CheckResult,
  type Pack,
  type Report,
  type Severity,
  type Waiver,
} from '../model/index.ts';
import { loadPacks, loadWaivers, counts, parseSeverity, applyWaivers } from '../packs/index.ts';
import { maxFileBytes } from '../base/limits.ts';
import type { CliContext } from './context.ts';
import type { PackArgs } from './args.ts';

export interface PackSetup {
  packs: Pack[];
  waivers: Waiver[];
  severity?: Severity;
  /** The checks that count toward exit 1 and 3 under --severity. */
  counts: (k: CheckResult) => boolean;
  /** The report with the waivers applied (`today` is the UTC day of this audit); warnings go to `warn`. */
  waive: (r: Report, warn: (m: string) => void) => Report;
}

export async function packSetup(ctx: CliContext, opts: PackArgs): Promise<PackSetup> {
  const load = { cwd: ctx.cwd, maxBytes: maxFileBytes(ctx.env) };
  const severity = opts.severity === undefined ? undefined : parseSeverity(opts.severity);
  if (opts.severity !== undefined && !severity)
    throw new UsageError(`--severity: '${opts.severity}' is not one of ${SEVERITIES.join(', ')}`);
  const packs = await loadPacks(opts.pack, load);
  const waivers = opts.waivers !== undefined ? await loadWaivers(opts.waivers, load) : [];
  const known = [...CHECK_IDS, ...packs.flatMap((p) => p.checks.map((k) => k.fullId))];
  // the UTC day of each audit, from the run's clock: serve's later cycles see a waiver expire
  const now = ctx.deps?.now ?? Date.now;
  const said = new Set<string>();
  return {
    packs,
    waivers,
    ...(severity ? { severity } : {}),
    counts: (k) => counts(k, severity),
    waive: (r, warn) => {
      const w = applyWaivers(r, waivers, { today: new Date(now()).toISOString().slice(0, 10), known });
      // fix audits twice (the plan, then after applying): each warning is said once
      for (const m of w.warnings.filter((x) => !said.has(x))) {
        said.add(m);
        warn(m);
      }
      return w.report;
    },
  };
}

/** A reviewed plan made with pack checks is re-derived with the same packs, or refused before anything is read. */
export function requirePlanPacks(plan: Report, packs: readonly Pack[], file: string): void {
  const loaded = new Set(packs.flatMap((p) => p.checks.map((k) => k.fullId)));
  const missing = [...new Set(plan.clusters.flatMap((c) => c.checks.map((k) => k.id)))].filter(
    (id) => id.includes('/') && !loaded.has(id),
  );
  if (missing.length)
    throw new UsageError(
      `${file}: the plan was made with pack checks not loaded now (${missing.join(', ')}): pass the same --pack options`,
    );
}
