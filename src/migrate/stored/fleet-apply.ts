/** --apply over one or many clusters: one question, then each cluster backed up and rewritten on its own. */

import { join } from 'node:path';
import { errText, SmdoctorError } from '../../errors.ts';
import type { CliContext } from '../../cli/context.ts';
import { confirm } from '../../cli/prompt.ts';
import { applyEntries } from './apply.ts';
import type { ApplyResult } from './output.ts';
import type { ClusterScan } from './sources.ts';

const plural = (n: number) => `quer${n === 1 ? 'y' : 'ies'}`;

/** A folder per cluster when there are several, so equal index/document names never share a backup file. */
const clusterDir = (url: string) => url.replace(/^[a-z]+:\/\//i, '').replace(/[^A-Za-z0-9._-]+/g, '_');

export async function applyFleet(ctx: CliContext, scans: ClusterScan[], o: { yes: unknown; backupDir: string }): Promise<void> {
  const todo = scans.filter((s) => s.found && s.found.entries.some((e) => !e.manual));
  if (todo.length === 0) return;
  const count = (s: ClusterScan) => s.found!.entries.filter((e) => !e.manual).length;
  const total = todo.reduce((n, s) => n + count(s), 0);
  const question = scans.length === 1
    ? `Rewrite ${total} ${plural(total)} in ${todo[0].found!.index} on ${todo[0].target.api.url}? [y/N] `
    : `Rewrite ${total} ${plural(total)} in ${todo.length} clusters (${todo.map((s) => `${s.target.api.url}: ${count(s)}`).join(', ')})? [y/N] `;
  if (!(await confirm(ctx, o.yes, question))) {
    ctx.stderr.write('smdoctor: nothing was changed\n');
    for (const s of todo) s.results = new Map(s.found!.entries.map((e) => [e, { status: e.manual ? 'skipped' : 'declined' } as ApplyResult]));
    return;
  }
  const tty = Boolean((ctx.stderr as { isTTY?: boolean }).isTTY);
  const say = (m: string) => ctx.stderr.write(`smdoctor: ${m}\n`);
  await Promise.all(todo.map(async (s) => {
    const url = s.target.api.url;
    if (tty) say(`${url}: rewriting ${count(s)} ${plural(count(s))} in ${s.found!.index}…`);
    try {
      const backupDir = scans.length === 1 ? o.backupDir : join(o.backupDir, clusterDir(url));
      const r = await applyEntries(s.target.api, s.found!.entries, { backupDir });
      s.results = r.results;
      s.backupPath = r.backupPath;
      const n = (st: string) => [...r.results.values()].filter((x) => x.status === st).length;
      if (tty) say(`${url}: ${n('applied')} applied, ${n('conflict')} conflicts, ${n('failed')} failed`);
      if (r.backupPath) say(`${scans.length === 1 ? '' : `${url}: `}original documents saved under ${r.backupPath}`);
    } catch (err) {
      // one cluster's failure (its backups could not be written: nothing changed there) does not stop the others
      if (scans.length === 1 || !(err instanceof SmdoctorError)) throw err;
      s.error = errText(err);
      if (tty) say(`${url}: ${s.error}`);
    }
  }));
}
