/** What the plan amounts to (for the question asked before applying), and the fix's exit code. */
import { auditOutcome, type Outcome, type Reason } from '../facts/outcome.ts';
import type { CheckResult, Report } from '../model/index.ts';
import { EXIT } from '../base/errors.ts';
import { plannedActions } from './apply.ts';

export interface PlanSize {
  actions: number;
  hosts: number;
  clusters: number;
}

export function planSize(report: Report): PlanSize {
  const hosts = new Set<string>();
  let actions = 0;
  let clusters = 0;
  for (const c of report.clusters) {
    const list = plannedActions(c);
    if (list.length) clusters++;
    actions += list.length;
    for (const a of list) if (a.host) hosts.add(a.host);
  }
  return { actions, hosts: hosts.size, clusters };
}

const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;

export function confirmQuestion(s: PlanSize): string {
  return `Apply ${plural(s.actions, 'action')} on ${plural(s.hosts, 'host')} in ${plural(s.clusters, 'cluster')}? [y/N] `;
}

/** 3 when a step failed or the run was cut short; else what the re-audit says (0 all pass, 1 findings, 3 incomplete). */
export function fixOutcome(r: Report, after: Report | null, counts?: (k: CheckResult) => boolean): Outcome {
  const reasons: Reason[] = [];
  for (const c of r.clusters) {
    const failed = plannedOrDone(c).filter((a) => a.status === 'failed');
    for (const a of failed)
      reasons.push({
        code: 'step-failed',
        text: `${c.name === c.api_url ? c.api_url : `${c.name} (${c.api_url})`}: ${a.type}${a.host ? ` on ${a.host}` : ''} failed: ${a.error ?? ''}`,
      });
  }
  for (const c of r.clusters)
    for (const why of c.refused ?? [])
      reasons.push({
        code: 'refused',
        text: `${c.name === c.api_url ? c.api_url : `${c.name} (${c.api_url})`}: ${why}`,
      });
  if (r.fix?.interrupted) reasons.push({ code: 'interrupted', text: 'interrupted: the remaining steps were skipped' });
  if (reasons.length || !after)
    return {
      code: EXIT.incomplete,
      reasons: reasons.length ? reasons : [{ code: 'no-re-audit', text: 'the re-audit did not run' }],
    };
  return auditOutcome(after, counts);
}

function plannedOrDone(c: Report['clusters'][number]) {
  return [...(c.actions ?? []), ...c.checks.flatMap((k) => k.actions)];
}
