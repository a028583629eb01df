/** The jobs/dashboards migration over a fleet: every cluster scanned, its findings listed and rendered. */

import type { ClusterTarget } from '../cluster.ts';
import { escapeControls as esc, fence, mdText } from '../../text/index.ts';
import { clusterHeader, type MigrateFormat, type Source } from '../explain-run.ts';
import type { StoredKind } from './extract.ts';
import { renderStoredJson, renderStoredText, replacementObject } from './output.ts';
import { compareJson, compareText, comparedCount, scanOrError, serviceText, type ClusterScan } from './sources.ts';

/** Every cluster scanned, at most `forks` at a time; one cluster's failure is its error, not the fleet's. */
export function scanFleet(
  targets: readonly ClusterTarget[],
  kind: StoredKind,
  source: Source,
  forks: number,
): Promise<ClusterScan[]> {
  return mapLimit(targets, forks, (t) => scanOrError(t, kind, source));
}

/** What the scans found that needs saying: clusters that could not be read, missing indices, queries skipped. */
export function scanWarnings(kind: StoredKind, scans: readonly ClusterScan[]): string[] {
  const single = scans.length === 1;
  const out: string[] = [];
  for (const s of scans) {
    const where = single ? '' : `${s.target.api.url}: `;
    if (s.error) out.push(`${where}${s.error}`);
    if (!s.found) continue;
    if (s.found.missing)
      out.push(`index ${s.found.index} does not exist on ${s.target.api.url}: no ${kind} to migrate`);
    for (const w of s.found.warnings)
      out.push(`${where}${w.index}/${w.doc_id}${w.path ? ` ${w.path}` : ''}: ${w.message}`);
  }
  return out;
}

/** The report of one cluster, or of a fleet grouped by cluster. */
export function renderStored(kind: StoredKind, scans: ClusterScan[], format: MigrateFormat, tty: boolean): string {
  return scans.length === 1 ? render(kind, scans[0], format, tty) : renderFleet(kind, scans, format, tty);
}

/** Queries whose rewrite failed or met a change since they were read. */
export const notRewritten = (s: ClusterScan): number =>
  s.results ? [...s.results.values()].filter((r) => r.status === 'failed' || r.status === 'conflict').length : 0;

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

function render(kind: StoredKind, s: ClusterScan, format: MigrateFormat, tty: boolean): string {
  if (s.error) {
    if (format === 'json') return JSON.stringify({ error: s.error }, null, 2);
    return `error: ${format === 'markdown' ? mdText(esc(s.error)) : esc(s.error)}\n`;
  }
  if (s.differences) {
    if (format === 'json') return JSON.stringify(compareJson(s), null, 2);
    const text = compareText(kind, s.differences, comparedCount(s));
    return format === 'markdown' ? `## migrate ${kind} --source compare\n\n${fence(text, 'text')}\n` : text;
  }
  if (s.service) {
    if (format === 'json') return JSON.stringify(s.service, null, 2);
    const text = serviceText(kind, s.service, { tty });
    return format === 'markdown' ? `## migrate ${kind} --source service\n\n${fence(text, 'text')}\n` : text;
  }
  const { entries, warnings } = s.found!;
  if (format === 'json') return renderStoredJson(entries, s.results);
  const text = renderStoredText(kind, entries, warnings, { tty, results: s.results });
  return format === 'markdown' ? `## migrate ${kind}\n\n${fence(text, 'text')}\n` : text;
}

/** One cluster's part of a fleet report: its text (fenced in markdown, where a stored query must stay code). */
function fleetBody(kind: StoredKind, s: ClusterScan, format: MigrateFormat, tty: boolean): string {
  const body = `${render(kind, s.found || s.service ? { ...s, error: undefined } : s, format === 'markdown' ? 'text' : format, tty)}${s.error && (s.found || s.service) ? `error: ${esc(s.error)}\n` : ''}`;
  return format === 'markdown' ? `${fence(body, 'text')}\n` : body;
}

/** One report grouped by cluster: JSON `{clusters: [...]}`, text and markdown one section per cluster. */
function renderFleet(kind: StoredKind, scans: ClusterScan[], format: MigrateFormat, tty: boolean): string {
  if (format === 'json') {
    const clusters = scans.map((s) => {
      const head = {
        api_url: s.target.api.url,
        hosts: s.target.hosts ?? [],
        ...(s.found ? { index: s.found.index, missing: s.found.missing } : {}),
      };
      if (s.error && !s.found) return { ...head, error: s.error };
      const body = s.differences
        ? compareJson(s)
        : s.service
          ? { entries: s.service }
          : {
              entries: s.found!.entries.map((e) => replacementObject(e, s.results?.get(e))),
              warnings: s.found!.warnings,
            };
      return {
        ...head,
        ...body,
        ...(s.error ? { error: s.error } : {}),
        ...(s.backupPath ? { backup: s.backupPath } : {}),
      };
    });
    return JSON.stringify({ clusters }, null, 2);
  }
  return scans
    .map((s) => `${clusterHeader(s.target.api.url, s.target.hosts ?? [], format)}\n${fleetBody(kind, s, format, tty)}`)
    .join('\n');
}
