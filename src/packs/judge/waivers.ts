/**
 * Waivers applied to an audit's results, after the audit: a waived failure is `waived` with its waiver, its findings
 * and planned actions on the waived hosts are no longer problems nor planned; an expired waiver is ignored and the
 * cluster's notes say so. Pure: today is a parameter.
 */
import { summaryOf } from '../../model/index.ts';
import type { Action, CheckResult, ClusterReport, Finding, Report, Waiver } from '../../model/index.ts';

export interface WaiversApplied {
  report: Report;
  /** A waiver naming no loaded check, or expired: said once each, for standard error. */
  warnings: string[];
}

const forCluster = (w: Waiver, c: ClusterReport): boolean =>
  !w.clusters || w.clusters.includes(c.name) || w.clusters.includes(c.api_url);

/** After its expiry day (UTC) a waiver no longer holds. */
export const expired = (w: Waiver, today: string): boolean => w.expires !== undefined && w.expires < today;

const waiverNote = (w: Waiver, id: string): Finding => ({
  kind: 'note',
  message: `the waiver of ${id} at ${w.at} expired on ${w.expires}: ignored, the check counts again`,
  evidence: { kind: 'waiver-expired', check: id, at: w.at, expires: w.expires },
});

/** Which findings and actions a waiver covers: all of them, or those of its hosts. */
const covers = (w: Waiver, host: string | undefined): boolean =>
  !w.hosts || (host !== undefined && w.hosts.includes(host));

function waive(k: CheckResult, w: Waiver): { check: CheckResult; dropped: Action[] } {
  const waivedNote = (f: Finding): Finding => ({ ...f, kind: 'note', message: `waived (${w.reason}): ${f.message}` });
  const findings = k.findings.map((f) =>
    (f.kind ?? 'problem') === 'problem' && covers(w, f.host) ? waivedNote(f) : f,
  );
  const dropped = k.actions.filter((a) => covers(w, 'host' in a ? a.host : undefined));
  const actions = k.actions.filter((a) => !dropped.includes(a));
  const left = findings.some((f) => (f.kind ?? 'problem') === 'problem');
  const waiver = { reason: w.reason, ...(w.expires ? { expires: w.expires } : {}) };
  return {
    check: left ? { ...k, findings, actions } : { ...k, status: 'waived', waiver, findings, actions },
    dropped,
  };
}

/**
 * A restart dropped with a waived check may be the one a later check planned for an earlier one (dedupeRestarts):
 * it goes back to the last check still failing that said "planned by" the waived one.
 */
function keepRestarts(checks: CheckResult[], waivedId: string, dropped: Action[]): CheckResult[] {
  let out = checks;
  for (const a of dropped) {
    if (a.type !== 'restart-service') continue;
    const owes = (k: CheckResult) =>
      k.status === 'fail' &&
      k.findings.some(
        (f) => f.evidence?.planned_by === waivedId && f.host === a.host && f.evidence.command === a.command,
      );
    const at = out.map(owes).lastIndexOf(true);
    if (at < 0) continue;
    out = out.map((k, i) => (i === at ? { ...k, actions: [...k.actions, a] } : k));
  }
  return out;
}

function waiveCluster(c: ClusterReport, waivers: readonly Waiver[], today: string): ClusterReport {
  let checks = c.checks;
  const notes: Finding[] = [];
  for (const k of c.checks) {
    const mine = waivers.filter((w) => w.check === k.id && forCluster(w, c));
    for (const w of mine.filter((x) => expired(x, today))) notes.push(waiverNote(w, k.id));
    const w = mine.find((x) => !expired(x, today));
    const now = checks.find((x) => x.id === k.id)!;
    if (!w || now.status !== 'fail') continue;
    const { check, dropped } = waive(now, w);
    checks = keepRestarts(
      checks.map((x) => (x.id === k.id ? check : x)),
      k.id,
      dropped,
    );
  }
  return { ...c, checks, notes: [...c.notes, ...notes] };
}

/** `known`: every check id loaded (the vendor's and the packs'), to warn of a waiver that names none of them. */
export function applyWaivers(
  report: Report,
  waivers: readonly Waiver[],
  o: { today: string; known: readonly string[] },
): WaiversApplied {
  const warnings = [
    ...waivers
      .filter((w) => !o.known.includes(w.check))
      .map((w) => `${w.at}: the waiver names ${w.check}, which no loaded check has: it waives nothing`),
    ...waivers
      .filter((w) => expired(w, o.today))
      .map((w) => `${w.at}: the waiver of ${w.check} expired on ${w.expires}: ignored`),
  ];
  if (!waivers.length) return { report, warnings };
  const clusters = report.clusters.map((c) => waiveCluster(c, waivers, o.today));
  // a waived failure no longer counts; the hosts are the run's, as counted before
  return { report: { ...report, clusters, summary: summaryOf(clusters, report.summary) }, warnings };
}
