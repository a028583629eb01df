/** `smdoctor diff`: two reports compared per cluster and check: what regressed, what was fixed, what stayed. Pure. */
import type { AnyCheckId, CheckStatus, ClusterReport, Report } from '../model/index.ts';
import { escapeControls, escapeHtml } from '../text/index.ts';
import { currentChecks } from './current.ts';
import { stringifyJson } from '../base/json-text.ts';

export type Change = 'regressed' | 'fixed' | 'changed' | 'stayed' | 'new-check' | 'check-gone';

export interface CheckDiff {
  id: AnyCheckId;
  old: CheckStatus | null;
  new: CheckStatus | null;
  change: Change;
  /** The newer report's reason (the older one's when the check is gone). */
  reason: string;
}

export interface ClusterDiff {
  api_url: string;
  name: string;
  checks: CheckDiff[];
}

export type Comparison =
  | { comparable: false; reasons: string[] }
  | {
      comparable: true;
      old: { generated_at: string | null; mode: string };
      new: { generated_at: string | null; mode: string };
      clusters: ClusterDiff[];
      counts: Record<'regressed' | 'fixed' | 'changed' | 'stayed', number>;
    };

// error (could not decide) is worse than pass, fail worse than error; skip counts as pass (not asked), and so
// does waived (a failure someone accepted, until its waiver expires)
const RANK: Record<CheckStatus, number> = { pass: 0, skip: 0, waived: 0, error: 1, fail: 2 };

function change(o: CheckStatus, n: CheckStatus): Change {
  if (o === n) return 'stayed';
  if (RANK[n] > RANK[o]) return 'regressed';
  if (n === 'pass' && RANK[o] > 0) return 'fixed';
  return 'changed';
}

/** A fix report stands for the cluster as its audit after applying saw it. */
const stateOf = currentChecks;

function clusterDiff(clusterReport: ClusterReport, n: ClusterReport): ClusterDiff {
  const before = new Map(stateOf(clusterReport).map((k) => [k.id, k]));
  const after = new Map(stateOf(n).map((k) => [k.id, k]));
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  const checks = ids.map((id): CheckDiff => {
    const b = before.get(id);
    const a = after.get(id);
    if (!b) return { id, old: null, new: a!.status, change: 'new-check', reason: a!.reason };
    if (!a) return { id, old: b.status, new: null, change: 'check-gone', reason: b.reason };
    return { id, old: b.status, new: a.status, change: change(b.status, a.status), reason: a.reason };
  });
  return { api_url: n.api_url, name: n.name, checks };
}

export function compareReports(report: Report, n: Report): Comparison {
  const reasons: string[] = [];
  if ((report.schema_version ?? 1) !== (n.schema_version ?? 1))
    reasons.push(
      `report shapes differ: schema_version ${report.schema_version ?? 1} (smdoctor ${report.version}) and ${n.schema_version ?? 1} (smdoctor ${n.version})`,
    );
  const oldUrls = new Set(report.clusters.map((c) => c.api_url));
  const newUrls = new Set(n.clusters.map((c) => c.api_url));
  const gone = [...oldUrls].filter((u) => !newUrls.has(u));
  const added = [...newUrls].filter((u) => !oldUrls.has(u));
  if (gone.length) reasons.push(`clusters only in the older report: ${gone.join(', ')}`);
  if (added.length) reasons.push(`clusters only in the newer report: ${added.join(', ')}`);
  if (reasons.length) return { comparable: false, reasons };
  const clusters = n.clusters.map((c) =>
    clusterDiff(
      report.clusters.find((x) => x.api_url === c.api_url)!,
      c,
    ),
  );
  const all = clusters.flatMap((c) => c.checks);
  const count = (ch: Change): number => all.filter((k) => k.change === ch).length;
  return {
    comparable: true,
    old: { generated_at: report.generated_at ?? null, mode: report.mode },
    new: { generated_at: n.generated_at ?? null, mode: n.mode },
    clusters,
    counts: {
      regressed: count('regressed'),
      fixed: count('fixed'),
      changed: count('changed'),
      stayed: count('stayed'),
    },
  };
}

const WORD: Record<Change, string> = {
  regressed: 'REGRESSED',
  fixed: 'FIXED',
  changed: 'CHANGED',
  stayed: 'stayed',
  'new-check': 'new check',
  'check-gone': 'not run now',
};

// every value here comes from a report file: statuses, ids and times are escaped like names and reasons
const st = (s: CheckStatus | null): string => escapeControls((s ?? '-').toUpperCase());
const run = (r: { mode: string; generated_at: string | null }): string =>
  escapeControls(`${r.mode} of ${r.generated_at ?? '?'}`);

export function renderDiffText(c: Comparison): string {
  if (!c.comparable) return `not comparable:\n${c.reasons.map((r) => `  - ${escapeControls(r)}`).join('\n')}\n`;
  const out = [`comparing ${run(c.old)} with ${run(c.new)}`];
  for (const cl of c.clusters) {
    out.push(`== cluster ${escapeControls(cl.name)} (${escapeControls(cl.api_url)}) ==`);
    for (const k of cl.checks)
      out.push(
        `${WORD[k.change].padEnd(11)} ${escapeControls(k.id)}: ${st(k.old)} → ${st(k.new)} — ${escapeControls(k.reason)}`,
      );
  }
  const n = c.counts;
  out.push(`summary: ${n.regressed} regressed, ${n.fixed} fixed, ${n.changed} changed, ${n.stayed} stayed`);
  return `${out.join('\n')}\n`;
}

export function renderDiffMarkdown(c: Comparison): string {
  const cell = (s: string): string => escapeHtml(escapeControls(s)).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  if (!c.comparable) return `# smdoctor diff — not comparable\n\n${c.reasons.map((r) => `- ${cell(r)}`).join('\n')}\n`;
  const n = c.counts;
  const out = [
    `# smdoctor diff — ${n.regressed} regressed, ${n.fixed} fixed, ${n.changed} changed, ${n.stayed} stayed`,
    '',
  ];
  for (const cl of c.clusters) {
    out.push(
      `## Cluster ${cell(cl.name)} (${cell(cl.api_url)})`,
      '',
      '| check | change | before | now | reason |',
      '|---|---|---|---|---|',
    );
    for (const k of cl.checks)
      out.push(
        `| \`${cell(k.id).replace(/`/g, "'")}\` | **${WORD[k.change]}** | ${cell(st(k.old))} | ${cell(st(k.new))} | ${cell(k.reason)} |`,
      );
    out.push('');
  }
  return `${out.join('\n')}\n`;
}

export const renderDiffJson = (c: Comparison): string => `${stringifyJson(c, 2)}\n`;

/** 2: not comparable; 1: something regressed; 0 otherwise. */
export const diffExitCode = (c: Comparison): number => (!c.comparable ? 2 : c.counts.regressed > 0 ? 1 : 0);
