/** One cluster's stored queries from the chosen source: local analysis, the service's lists, or both compared. */

import { errText, SmdoctorError } from '../../base/errors.ts';
import type { ClusterTarget } from '../cluster.ts';
import type { Source } from '../explain-run.ts';
import { compareLists, differenceLines, type ListDifference } from '../compare.ts';
import { clusterMacros, clusterMappings } from '../providers.ts';
import { markInsertions } from '../render.ts';
import { escapeControls as esc } from '../../text/index.ts';
import { insertionsOf, serviceList } from '../service.ts';
import type { Entry } from './analyse.ts';
import type { StoredKind } from './extract.ts';
import { findStored, storedConfig, type StoredFindings } from './find.ts';
import { replacementObject, type ApplyResult } from './output.ts';

export interface ClusterScan {
  target: ClusterTarget;
  /** Local analysis (local and compare). */
  found?: StoredFindings;
  /** The service's list (service and compare). */
  service?: Array<Record<string, unknown>>;
  differences?: ListDifference[];
  results?: Map<Entry, ApplyResult>;
  backupPath?: string;
  /** The cluster could not be read (the other clusters are still reported). */
  error?: string;
  failure?: unknown;
}

export async function scanCluster(target: ClusterTarget, kind: StoredKind, source: Source): Promise<ClusterScan> {
  const scan: ClusterScan = { target };
  const local = async () => {
    scan.found = await findStored(target.api, kind, storedConfig(target.vars), {
      mappings: clusterMappings(target.api),
      macros: clusterMacros(target.api, target.macrosIndex),
    });
  };
  const service = async () => {
    scan.service = await serviceList(target.api, kind);
  };
  await Promise.all([source !== 'service' ? local() : undefined, source !== 'local' ? service() : undefined]);
  if (source === 'compare')
    scan.differences = compareLists(
      scan.found!.entries.map((e) => replacementObject(e)),
      scan.service!,
    );
  return scan;
}

/** A failure that belongs to one cluster becomes its error; anything else is a defect and propagates. */
export async function scanOrError(target: ClusterTarget, kind: StoredKind, source: Source): Promise<ClusterScan> {
  try {
    return await scanCluster(target, kind, source);
  } catch (err) {
    if (!(err instanceof SmdoctorError)) throw err;
    return { target, error: errText(err), failure: err };
  }
}

const owner = (o: Record<string, unknown> | null) => String(o?.job_id ?? o?.dashboard_id ?? '?');

/** Text of the service's list: the replacement objects with the inserted `text` marked. */
export function serviceText(
  kind: StoredKind,
  list: ReadonlyArray<Record<string, unknown>>,
  o: { tty: boolean },
): string {
  const lines: string[] = [];
  for (const s of list) {
    const q = s.query as { original: string; replacement: string };
    lines.push(
      esc(
        `${kind === 'jobs' ? `job ${owner(s)}` : `dashboard ${owner(s)} ${String(s.pathInJson)}`}  (${String(s.index)}/${String(s.doc_id)})`,
      ),
    );
    lines.push('  original:', ...q.original.split('\n').map((l) => `    ${esc(l)}`));
    lines.push('  replacement:', ...markInsertions(q.replacement, insertionsOf(q.original, q.replacement), o, '    '));
  }
  lines.push(
    list.length
      ? `result: the service lists ${list.length} quer${list.length === 1 ? 'y' : 'ies'} to replace`
      : 'result: nothing to migrate (service)',
  );
  return `${lines.join('\n')}\n`;
}

/** Text of a comparison: each query whose answers differ, with both values of every differing field. */
export function compareText(kind: StoredKind, diffs: readonly ListDifference[], compared: number): string {
  const lines: string[] = [];
  for (const d of diffs) {
    const who =
      kind === 'jobs'
        ? `job ${owner(d.local ?? d.service)}`
        : `dashboard ${owner(d.local ?? d.service)} ${d.pathInJson ?? ''}`;
    const only = !d.local
      ? ': listed by the service only'
      : !d.service
        ? ': listed by local only'
        : ': local and service differ';
    lines.push(esc(`${who}  (${d.index}/${d.doc_id})${only}`));
    for (const x of d.differences) lines.push(...differenceLines(x).map(esc));
  }
  lines.push(
    diffs.length
      ? `result: ${diffs.length} of ${compared} listed quer${compared === 1 ? 'y differs' : 'ies differ'} between local and service`
      : `result: local and service agree on all ${compared} listed quer${compared === 1 ? 'y' : 'ies'}`,
  );
  return `${lines.join('\n')}\n`;
}

export function compareJson(scan: ClusterScan): Record<string, unknown> {
  return {
    agree: scan.differences!.length === 0,
    differences: scan.differences,
    local: scan.found!.entries.map((e) => replacementObject(e)),
    service: scan.service,
  };
}

export const comparedCount = (scan: ClusterScan) =>
  new Set(
    [...scan.found!.entries.map((e) => replacementObject(e)), ...scan.service!].map(
      (o) => `${String(o.index)}\u0000${String(o.doc_id)}\u0000${String(o.pathInJson ?? '')}`,
    ),
  ).size;
