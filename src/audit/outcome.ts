/** The exit code of an audit and, for 3, why: PRODUCT.md "Exit codes". */
import { EXIT } from '../errors.ts';
import type { Report } from './types.ts';

export interface Outcome {
  code: number;
  /** Why the run could not complete; empty unless code is 3. */
  reasons: string[];
}

export function auditOutcome(r: Report): Outcome {
  const reasons: string[] = [];
  for (const c of r.clusters) {
    const label = c.name === c.api_url ? c.api_url : `${c.name} (${c.api_url})`;
    for (const n of c.notes) {
      const kind = n.evidence?.kind;
      if (kind === 'host-unreachable') reasons.push(`${label}: host ${n.host} is unreachable`);
      if (kind === 'api-unreachable') reasons.push(`${label}: the REST API could not be read`);
    }
    for (const k of c.checks.filter((x) => x.status === 'error')) reasons.push(`${label}: check ${k.id} could not be decided: ${k.reason}`);
  }
  if (reasons.length) return { code: EXIT.incomplete, reasons };
  const failed = r.clusters.some((c) => c.checks.some((k) => k.status === 'fail'));
  return { code: failed ? EXIT.findings : EXIT.ok, reasons };
}
