/**
 * `smdoctor merge`: the reports of `audit --shard K/N` (or of audits of disjoint inventories) as one report, equal to
 * what one run over the whole inventory gives: per-cluster sections in the inventory's order, the summary recomputed.
 */
import { UsageError } from '../base/errors.ts';
import { summaryOf, type CheckResult, type ClusterReport, type Report } from '../model/index.ts';

export interface MergeInput {
  /** Where the report was read from: named in every refusal. */
  file: string;
  report: Report;
}

// a check left out by --check is in the report, skipped: it is not in the set that ran
const unselected = (k: CheckResult): boolean => k.status === 'skip' && k.reason.startsWith('not selected (--check ');

const checkSet = (r: Report): string | null => {
  const ids = new Set(r.clusters.flatMap((c) => c.checks.filter((k) => !unselected(k)).map((k) => k.id)));
  // a shard with no cluster ran no check: it agrees with any set
  return r.clusters.length ? [...ids].sort().join(',') : null;
};

/** Every reason the inputs cannot be one report; empty when they can. */
export function mergeProblems(inputs: readonly MergeInput[]): string[] {
  const problems: string[] = [];
  if (!inputs.length) return ['no reports to merge'];
  for (const { file, report } of inputs)
    if (report.mode !== 'audit') problems.push(`${file}: a ${report.mode} report; only audit reports merge`);
  const [first] = inputs;
  for (const { file, report } of inputs.slice(1)) {
    if (report.schema_version !== first!.report.schema_version)
      problems.push(
        `${file}: schema_version ${String(report.schema_version)}, but ${first!.file} has ${String(first!.report.schema_version)}`,
      );
  }
  const sets = inputs.flatMap((i) => (checkSet(i.report) === null ? [] : [{ file: i.file, set: checkSet(i.report)! }]));
  for (const s of sets.slice(1))
    if (s.set !== sets[0]!.set)
      problems.push(`${s.file}: checks ${s.set}, but ${sets[0]!.file} has ${sets[0]!.set} (run every shard alike)`);
  const owner = new Map<string, string>();
  for (const { file, report } of inputs)
    for (const c of report.clusters) {
      const seen = owner.get(c.api_url);
      if (seen) problems.push(`${file}: cluster ${c.api_url} is also in ${seen}`);
      else owner.set(c.api_url, file);
    }
  problems.push(...shardProblems(inputs));
  return problems;
}

/** Shard reports: all of one N, each K once, none missing (a missing shard would drop its clusters silently). */
function shardProblems(inputs: readonly MergeInput[]): string[] {
  const sharded = inputs.filter((i) => i.report.shard);
  if (!sharded.length) return [];
  if (sharded.length !== inputs.length)
    return [
      `${inputs
        .filter((i) => !i.report.shard)
        .map((i) => i.file)
        .join(', ')}: not a shard report, but others are`,
    ];
  const count = sharded[0]!.report.shard!.count;
  const out: string[] = [];
  const byIndex = new Map<number, string>();
  for (const { file, report } of sharded) {
    const s = report.shard!;
    const placed =
      s.positions.length === report.clusters.length && s.positions.every((p) => Number.isSafeInteger(p) && p >= 0);
    if (!placed) out.push(`${file}: shard.positions does not give one place (a whole number) per cluster`);
    else if (
      !Number.isSafeInteger(s.count) ||
      s.count < 1 ||
      !Number.isSafeInteger(s.index) ||
      s.index < 0 ||
      s.index >= s.count
    )
      out.push(`${file}: shard ${s.index}/${s.count} is not a shard K of N (0 ≤ K < N)`);
    else if (s.count !== count)
      out.push(`${file}: shard ${s.index}/${s.count}, but ${sharded[0]!.file} is one of ${count}`);
    else if (byIndex.has(s.index)) out.push(`${file}: shard ${s.index}/${count} is also ${byIndex.get(s.index)}`);
    else byIndex.set(s.index, file);
  }
  const missing = Array.from({ length: count }, (_, k) => k).filter((k) => !byIndex.has(k));
  if (!out.length && missing.length)
    out.push(`shard${missing.length > 1 ? 's' : ''} ${missing.map((k) => `${k}/${count}`).join(', ')} missing`);
  return out;
}

/** One report of all inputs; a UsageError listing every problem when they do not make one. */
export function mergeReports(inputs: readonly MergeInput[]): Report {
  const problems = mergeProblems(inputs);
  if (problems.length) throw new UsageError(`merge: ${problems.join('; ')}`);
  const placed = inputs.flatMap(({ report }, n) =>
    report.clusters.map((c, i) => ({ c, at: report.shard ? report.shard.positions[i]! : n * 1e9 + i })),
  );
  const clusters: ClusterReport[] = placed.sort((a, b) => a.at - b.at).map((p) => p.c);
  const first = inputs[0]!.report;
  const started = inputs.map((i) => i.report.generated_at).filter((t): t is string => typeof t === 'string');
  return {
    ...(first.schema_version !== undefined ? { schema_version: first.schema_version } : {}),
    // the whole run began when its first shard did
    ...(started.length ? { generated_at: started.sort()[0]! } : {}),
    tool: 'smdoctor',
    version: first.version,
    mode: 'audit',
    clusters,
    // counted from the clusters themselves, not trusted from each file's summary
    summary: summaryOf(clusters),
  };
}
