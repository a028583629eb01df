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

/** The packs an audit runs and the waivers it applies, as the user named them. */
export interface PackChoice {
  pack: string[];
  waivers?: string;
  severity?: string;
}

/** Where the files are read from, how large one may be, and the clock that dates each audit (for the waivers). */
export interface PackIo {
  cwd: string;
  maxBytes: number;
  now: () => number;
}

export interface PackSetup {
  packs: Pack[];
  waivers: Waiver[];
  severity?: Severity;
  /** The checks that count toward exit 1 and 3 under --severity. */
  counts: (k: CheckResult) => boolean;
  /** The report with the waivers applied (`today` is the UTC day of this audit); warnings go to `warn`. */
  waive: (r: Report, warn: (m: string) => void) => Report;
}

export async function packSetup(choice: PackChoice, io: PackIo): Promise<PackSetup> {
  const load = { cwd: io.cwd, maxBytes: io.maxBytes };
  const severity = choice.severity === undefined ? undefined : parseSeverity(choice.severity);
  if (choice.severity !== undefined && !severity)
    throw new UsageError(`--severity: '${choice.severity}' is not one of ${SEVERITIES.join(', ')}`);
  const packs = await loadPacks(choice.pack, load);
  const waivers = choice.waivers !== undefined ? await loadWaivers(choice.waivers, load) : [];
  const known = [...CHECK_IDS, ...packs.flatMap((p) => p.checks.map((k) => k.fullId))];
  const said = new Set<string>();
  return {
    packs,
    waivers,
    ...(severity ? { severity } : {}),
    counts: (k) => counts(k, severity),
    waive: (r, warn) => {
      // the UTC day of each audit, from the run's clock: serve's later cycles see a waiver expire
      const w = applyWaivers(r, waivers, { today: new Date(io.now()).toISOString().slice(0, 10), known });
      // fix audits twice (the plan, then after applying): each warning is said once
      for (const m of w.warnings.filter((x) => !said.has(x))) {
        said.add(m);
        warn(m);
      }
      return w.report;
    },
  };
}
