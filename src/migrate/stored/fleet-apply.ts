/** --apply over one or many clusters: one question, then each cluster backed up and rewritten on its own. */

import { join } from 'node:path';
import { errText, SmdoctorError } from '../../base/errors.ts';
import { applyEntries } from './apply.ts';
import type { ApplyResult } from './output.ts';
import type { ClusterScan } from './sources.ts';

const plural = (n: number) => `quer${n === 1 ? 'y' : 'ies'}`;

/** A folder per cluster when there are several, so equal index/document names never share a backup file. */
const clusterDir = (url: string) => url.replace(/^[a-z]+:\/\//i, '').replace(/[^A-Za-z0-9._-]+/g, '_');

const count = (s: ClusterScan) => s.found!.entries.filter((e) => !e.manual).length;

/** The clusters with something to rewrite, and the one question to ask before rewriting them (none: nothing to do). */
export function pendingApply(scans: readonly ClusterScan[]): { todo: ClusterScan[]; question: string } | undefined {
  const todo = scans.filter((s) => s.found && s.found.entries.some((e) => !e.manual));
  if (todo.length === 0) return undefined;
  const total = todo.reduce((n, s) => n + count(s), 0);
  const question =
    scans.length === 1
      ? `Rewrite ${total} ${plural(total)} in ${todo[0].found!.index} on ${todo[0].target.api.url}? [y/N] `
      : `Rewrite ${total} ${plural(total)} in ${todo.length} clusters (${todo.map((s) => `${s.target.api.url}: ${count(s)}`).join(', ')})? [y/N] `;
  return { todo, question };
}

/** The answer was no: every query is reported declined (or skipped when it needs a person). */
export function declineAll(todo: readonly ClusterScan[]): void {
  for (const s of todo)
    s.results = new Map(s.found!.entries.map((e) => [e, { status: e.manual ? 'skipped' : 'declined' } as ApplyResult]));
}

export interface FleetApplyOptions {
  backupDir: string;
  /** How many clusters were scanned (one: its failure is the command's, and it gets no folder of its own). */
  clusters: number;
  /** Progress of each cluster, for a watching person. */
  progress?: (m: string) => void;
  /** Where the original documents were saved (always worth saying). */
  saved: (m: string) => void;
  /** A cluster's stop (Ctrl-C, its lease lost): no further rewrite there. */
  stop?: (url: string) => AbortSignal | undefined;
}

/** Rewrites every cluster of `todo` in parallel; results, backup path and any error land on each scan. */
export async function applyFleet(todo: readonly ClusterScan[], o: FleetApplyOptions): Promise<void> {
  const single = o.clusters === 1;
  await Promise.all(
    todo.map(async (s) => {
      const url = s.target.api.url;
      o.progress?.(`${url}: rewriting ${count(s)} ${plural(count(s))} in ${s.found!.index}…`);
      try {
        const backupDir = single ? o.backupDir : join(o.backupDir, clusterDir(url));
        const signal = o.stop?.(url);
        const r = await applyEntries(s.target.api, s.found!.entries, { backupDir, ...(signal ? { signal } : {}) });
        s.results = r.results;
        s.backupPath = r.backupPath;
        const n = (st: string) => [...r.results.values()].filter((x) => x.status === st).length;
        o.progress?.(`${url}: ${n('applied')} applied, ${n('conflict')} conflicts, ${n('failed')} failed`);
        if (r.backupPath) o.saved(`${single ? '' : `${url}: `}original documents saved under ${r.backupPath}`);
      } catch (err) {
        // one cluster's failure (its backups could not be written: nothing changed there) does not stop the others
        if (single || !(err instanceof SmdoctorError)) throw err;
        s.error = errText(err);
        o.progress?.(`${url}: ${s.error}`);
      }
    }),
  );
}
