/** `--severity LEVEL`: which checks count toward exit 1 (and 3). The vendor's five are critical. */
import { SEVERITIES, severityRank, type CheckResult, type Severity } from '../../model/index.ts';

export const severityOf = (k: Pick<CheckResult, 'severity'>): Severity => k.severity ?? 'critical';

/** Whether a check is at or above the level (every check counts when no level is given). */
export const counts = (k: Pick<CheckResult, 'severity'>, level?: Severity): boolean =>
  level === undefined || severityRank(severityOf(k)) <= severityRank(level);

export function parseSeverity(v: string): Severity | undefined {
  return (SEVERITIES as readonly string[]).includes(v) ? (v as Severity) : undefined;
}
