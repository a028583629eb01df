/** `fix --plan FILE`: a reviewed plan read back, refused when of another shape or too old. */
import { readFile } from 'node:fs/promises';
import { InputError, UsageError } from '../base/errors.ts';
import type { Report } from '../model/index.ts';
import { parseJsonFile, reportShapeProblem } from '../facts/report-file.ts';
import { SCHEMA_VERSION } from '../base/version.ts';
import { CHECK_IDS } from '../model/index.ts';
import { planProblems } from './plan-shape.ts';

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `90m`, `24h`, `2d`, `3600s` → milliseconds. */
export function parseDuration(v: string, flag = '--plan-max-age'): number {
  const m = /^(\d+(?:\.\d+)?)(s|m|h|d)$/.exec(v.trim());
  if (!m) throw new UsageError(`${flag} must be a number with a unit s, m, h or d (e.g. 24h), not '${v}'`);
  return Number(m[1]) * UNITS[m[2]!]!;
}

const hours = (ms: number): string => `${(ms / 3_600_000).toFixed(1)}h`;

const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The plan, checked: JSON of an audit, this smdoctor's schema_version, no older than maxAgeMs (a convenience: the
 * re-derivation and --approve protect), every pin present, every action of a known type with only its own fields.
 * Exit 2 otherwise.
 */
export async function readPlan(file: string, maxAgeMs: number, now: number): Promise<Report> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new InputError(`${file}: the plan cannot be read`, { cause });
  }
  const plan = parseJsonFile(text, file, 'not a JSON report of smdoctor audit: run audit again') as Report;
  if (typeof plan !== 'object' || plan === null || plan.tool !== 'smdoctor' || !Array.isArray(plan.clusters)) {
    throw new InputError(`${file}: not a JSON report of smdoctor audit`);
  }
  if (plan.schema_version !== SCHEMA_VERSION) {
    throw new InputError(
      `${file}: planned by smdoctor ${plan.version ?? '?'} with report schema_version ${plan.schema_version ?? 'none'}; this smdoctor reads ${SCHEMA_VERSION}: run audit again`,
    );
  }
  if (plan.mode !== 'audit')
    throw new InputError(`${file}: a ${plan.mode} report is not a plan: use the JSON report of audit`);
  // ISO 8601 as audit writes it, nothing else: Date.parse also takes "… GMT+0000 (any text)"
  const at = ISO_8601.test(plan.generated_at ?? '') ? Date.parse(plan.generated_at!) : NaN;
  if (Number.isNaN(at))
    throw new InputError(
      `${file}: the plan's generated_at is not an ISO 8601 time such as 2026-01-31T12:00:00.000Z: run audit again`,
    );
  if (now - at > maxAgeMs)
    throw new InputError(
      `${file}: the plan is ${hours(now - at)} old, older than --plan-max-age (${hours(maxAgeMs)}): run audit again`,
    );
  if (at - now > 5 * 60_000) throw new InputError(`${file}: the plan is dated in the future (${plan.generated_at})`);
  const problems = planProblems(plan.clusters);
  if (problems.length)
    throw new InputError(
      `${file}: not a plan smdoctor audit wrote (${problems.length} problem${problems.length > 1 ? 's' : ''}): ${problems.slice(0, 8).join('; ')}${problems.length > 8 ? '; …' : ''}: run audit again`,
    );
  // what the plan's actions do not cover (checks, findings, nodes) must have the report's shape too
  const problem = reportShapeProblem(plan);
  if (problem) throw new InputError(`${file}: not a plan smdoctor audit wrote: ${problem}: run audit again`);
  return plan;
}

/** The checks the plan was made with: all but those `--check` left out. */
export function plannedChecks(plan: Report): string {
  const first = plan.clusters[0]?.checks ?? [];
  // pack checks come back with --pack, not --check
  const ids = first
    .filter((k) => !(k.status === 'skip' && k.reason.startsWith('not selected')))
    .map((k) => k.id)
    .filter((id) => (CHECK_IDS as readonly string[]).includes(id));
  return ids.length ? ids.join(',') : CHECK_IDS.join(',');
}
