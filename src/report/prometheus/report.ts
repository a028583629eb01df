/** `--format prometheus` for audit and fix: per cluster and check, bounded labels only (never per query or document). */
import type { Action, ClusterReport, Report } from '../../model/index.ts';
import { ACTION_STATUSES, CHECK_IDS, CHECK_STATUSES, PACK_CHECK_ID_RE } from '../../model/index.ts';
import { currentChecks } from '../current.ts';
import { exposition, runFamilies, type Family, type Labels } from './exposition.ts';

// a label is the vendor's id or a pack check's full id (bounded by the packs loaded), never a value read
const knownId = (id: string): boolean => (CHECK_IDS as readonly string[]).includes(id) || PACK_CHECK_ID_RE.test(id);

const who = (clusterReport: ClusterReport): Labels => ({ cluster: clusterReport.name, api_url: clusterReport.api_url });

/** After a fix, the state the audit after applying saw: that is the cluster as it is now. */
const current = currentChecks;

function checkFamilies(report: Report): Family[] {
  const status: Family = {
    name: 'smdoctor_check_status',
    help: 'Status of each check per cluster: 1 for the status it has, 0 for the others (after a fix: as the audit after applying saw it).',
    type: 'gauge',
    samples: [],
  };
  const findings: Family = {
    name: 'smdoctor_check_findings',
    help: 'Problems a check found per cluster (notes and unverified items are not counted).',
    type: 'gauge',
    samples: [],
  };
  const actions: Family = {
    name: 'smdoctor_planned_actions',
    help: 'Actions the plan holds per cluster and check (check="cluster" for the cluster\'s own actions).',
    type: 'gauge',
    samples: [],
  };
  const severity: Family = {
    name: 'smdoctor_check_severity',
    help: "Each check's severity per cluster, as a label (1): pack checks as their pack says, the vendor's five critical.",
    type: 'gauge',
    samples: [],
  };
  for (const c of report.clusters) {
    for (const k of c.checks)
      if (knownId(k.id))
        severity.samples.push({ labels: { ...who(c), check: k.id, severity: k.severity ?? 'critical' }, value: 1 });
    for (const k of current(c)) {
      if (!knownId(k.id)) continue;
      for (const s of CHECK_STATUSES)
        status.samples.push({ labels: { ...who(c), check: k.id, status: s }, value: k.status === s ? 1 : 0 });
    }
    for (const k of c.checks) {
      const problems = k.findings.filter((f) => (f.kind ?? 'problem') === 'problem').length;
      findings.samples.push({ labels: { ...who(c), check: k.id }, value: problems });
      actions.samples.push({ labels: { ...who(c), check: k.id }, value: k.actions.length });
    }
    actions.samples.push({ labels: { ...who(c), check: 'cluster' }, value: c.actions?.length ?? 0 });
  }
  return [status, findings, actions, severity];
}

function hostFamilies(r: Report): Family[] {
  return [
    {
      name: 'smdoctor_hosts_unreachable',
      help: 'Inventory hosts of the cluster that could not be reached over SSH.',
      type: 'gauge',
      samples: r.clusters.map((c) => ({
        labels: who(c),
        value: c.nodes.filter((n) => n.host !== null && !n.reachable).length,
      })),
    },
    {
      name: 'smdoctor_cluster_refused',
      help: 'fix: 1 when nothing (more) was changed in the cluster (its pre-flight, or its drift from a reviewed plan).',
      type: 'gauge',
      samples: r.mode === 'fix' ? r.clusters.map((c) => ({ labels: who(c), value: c.refused?.length ? 1 : 0 })) : [],
    },
  ];
}

function fixFamily(r: Report): Family {
  const all = r.clusters.flatMap((c) => [...(c.actions ?? []), ...c.checks.flatMap((k) => k.actions)]);
  const count = (s: Action['status']): number => all.filter((a) => a.status === s).length;
  return {
    name: 'smdoctor_fix_actions',
    help: "fix: the plan's actions by what became of them.",
    type: 'gauge',
    samples: r.fix
      ? ACTION_STATUSES.filter((s) => s !== 'planned').map((s) => ({ labels: { status: s }, value: count(s) }))
      : [],
  };
}

export function renderPrometheus(r: Report, durationSeconds?: number): string {
  return exposition([
    ...checkFamilies(r),
    ...hostFamilies(r),
    fixFamily(r),
    ...runFamilies(r.mode, r.generated_at, durationSeconds),
  ]);
}
