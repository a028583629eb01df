/** The summary per severity that ends the text and Markdown reports: counts, then what fails and on which clusters. */
import { CHECK_STATUSES, type ClusterReport } from '../model/index.ts';
import { bySeverity } from './tally.ts';

export interface SummaryLine {
  /** The line's indent. */
  pad: string;
  text: string;
  /** The heading line. */
  head?: boolean;
}

const plural = (n: number, w: string): string => `${n} ${w}${n === 1 ? '' : 's'}`;

export function severityLines(clusters: readonly ClusterReport[]): SummaryLine[] {
  const tallies = bySeverity(clusters);
  if (!tallies.length) return [];
  const after = clusters.some((c) => c.after) ? ' (after the fix)' : '';
  const many = clusters.length > 1;
  const out: SummaryLine[] = [{ pad: '', text: `by severity${after}:`, head: true }];
  for (const t of tallies) {
    const counts = CHECK_STATUSES.filter((s) => t.counts[s] > 0).map((s) => `${t.counts[s]} ${s}`);
    out.push({
      pad: '  ',
      text: `${t.key}: ${plural(t.checks, 'check')}${many ? ` on ${plural(clusters.length, 'cluster')}` : ''} — ${counts.join(', ')}`,
    });
    for (const f of t.failing)
      out.push({
        pad: '    ',
        text: `✗ ${f.id}${many ? ` on ${plural(f.clusters.length, 'cluster')}: ${f.clusters.join(', ')}` : ''}`,
      });
  }
  return out;
}
