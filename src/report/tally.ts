/** The fleet counted for people: what does not pass first, and per severity and per pack, the cells of each status
 * and the clusters each failing check fails on. Shared by the text, Markdown and HTML reports. */
import {
  SEVERITIES,
  isCheckStatus,
  type AnyCheckId,
  type CheckResult,
  type CheckStatus,
  type ClusterReport,
  type Severity,
} from '../model/index.ts';
import { currentChecks } from './current.ts';

/** The group of the vendor's five checks (their ids have no `pack/`). */
export const BASE_GROUP = 'smdoctor';

/** The pack of a check id `pack/id`; the vendor's checks belong to BASE_GROUP. */
export const packOf = (id: string): string => {
  const slash = id.indexOf('/');
  return slash < 0 ? BASE_GROUP : id.slice(0, slash);
};

/** The id without its pack: the pack is said by the group the check is shown in. */
export const shortId = (id: string): string => id.slice(id.indexOf('/') + 1);

export const severityOf = (k: Pick<CheckResult, 'severity'>): Severity => k.severity ?? 'critical';

/** Fail, error and waived: what a reader must look at. Pass and skip are the rest, shown one line each or collapsed. */
export const needsLook = (s: CheckStatus): boolean => s === 'fail' || s === 'error' || s === 'waived';

/** The checks that need a look first, then the rest, each part in the report's order. */
export function lookFirst<T extends { status: CheckStatus }>(checks: readonly T[]): { look: T[]; rest: T[] } {
  return { look: checks.filter((k) => needsLook(k.status)), rest: checks.filter((k) => !needsLook(k.status)) };
}

/** One check of one cluster as it stands now (after a fix: as the audit after applying saw it). */
export interface Cell {
  id: AnyCheckId;
  status: CheckStatus;
  reason: string;
  severity: Severity;
}

export const cellsOf = (c: ClusterReport): Cell[] => {
  const severity = new Map(c.checks.map((k) => [k.id, severityOf(k)]));
  return currentChecks(c).map((k) => ({ ...k, severity: severity.get(k.id) ?? 'critical' }));
};

export interface Tally {
  /** A severity or a pack name. */
  key: string;
  /** Distinct checks. */
  checks: number;
  /** Cells (cluster × check) of each status. */
  counts: Record<CheckStatus, number>;
  /** Each check that fails or errors somewhere, with the clusters (their names) it does so on. */
  failing: Array<{ id: AnyCheckId; clusters: string[] }>;
}

const zero = (): Record<CheckStatus, number> => ({ pass: 0, fail: 0, error: 0, skip: 0, waived: 0 });

function tallyBy(clusters: readonly ClusterReport[], keyOf: (cell: Cell) => string): Map<string, Tally> {
  const out = new Map<string, Tally & { ids: Set<string>; on: Map<AnyCheckId, string[]> }>();
  for (const c of clusters)
    for (const cell of cellsOf(c)) {
      const key = keyOf(cell);
      const t = out.get(key) ?? { key, checks: 0, counts: zero(), failing: [], ids: new Set(), on: new Map() };
      out.set(key, t);
      t.ids.add(cell.id);
      // a status from a file that is none of smdoctor's counts nowhere (the report reader refuses it anyway)
      if (isCheckStatus(cell.status)) t.counts[cell.status]++;
      if (cell.status === 'fail' || cell.status === 'error')
        t.on.set(cell.id, [...(t.on.get(cell.id) ?? []), c.name || c.api_url]);
    }
  return new Map(
    [...out].map(([k, { ids, on, ...t }]) => [
      k,
      { ...t, checks: ids.size, failing: [...on].map(([id, cl]) => ({ id, clusters: cl })) },
    ]),
  );
}

/** Per severity, most severe first; only the severities the report has. */
export const bySeverity = (clusters: readonly ClusterReport[]): Tally[] => {
  const m = tallyBy(clusters, (k) => k.severity);
  return SEVERITIES.flatMap((s) => m.get(s) ?? []);
};

/** Per pack, the vendor's five first, then in the order the checks come. */
export const byPack = (clusters: readonly ClusterReport[]): Tally[] => [
  ...tallyBy(clusters, (k) => packOf(k.id)).values(),
];
