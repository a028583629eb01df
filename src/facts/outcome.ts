/** The exit code of an audit and, for 3, why (the README's exit codes). */
import { EXIT } from '../base/errors.ts';
import type { CheckResult, Report } from '../model/index.ts';

/** What kept a run from completing, for the CLI to decide on: the text is for people and may be reworded. */
export type ReasonCode =
  | 'unaudited' // a cluster's API, hosts or checks could not be read or decided
  | 'step-failed'
  | 'refused' // a cluster where nothing (more) ran: drift from a reviewed plan, another run's lease, the pre-flight
  | 'interrupted'
  | 'no-re-audit';

export interface Reason {
  code: ReasonCode;
  text: string;
}

export interface Outcome {
  code: number;
  /** Why the run could not complete; empty unless code is 3. */
  reasons: Reason[];
}

/** `counts`: the checks that may make the exit 1 or 3 (`--severity`); every check unless given. */
export function auditOutcome(report: Report, counts: (k: CheckResult) => boolean = () => true): Outcome {
  const reasons: Reason[] = [];
  // one line per cluster: the report above it already holds every detail
  for (const c of report.clusters) {
    const label = c.name === c.api_url ? c.api_url : `${c.name} (${c.api_url})`;
    const parts: string[] = [];
    if (c.notes.some((n) => n.evidence?.kind === 'api-unreachable')) parts.push('the REST API could not be read');
    const down = c.notes.filter((n) => n.evidence?.kind === 'host-unreachable').map((n) => n.host);
    if (down.length) parts.push(`unreachable: ${down.join(', ')}`);
    const undecided = c.checks.filter((x) => x.status === 'error' && counts(x)).map((k) => k.id);
    if (undecided.length) parts.push(`not decided: ${undecided.join(', ')}`);
    if (parts.length) reasons.push({ code: 'unaudited', text: `${label}: ${parts.join('; ')}` });
  }
  if (reasons.length) return { code: EXIT.incomplete, reasons };
  // a planned cluster action (a leftover allocation setting) is something fix would change
  const failed = report.clusters.some(
    (c) =>
      c.checks.some((k) => k.status === 'fail' && counts(k)) || (c.actions ?? []).some((a) => a.status === 'planned'),
  );
  return { code: failed ? EXIT.findings : EXIT.ok, reasons };
}
