/** The jobs/dashboards branch of `smdoctor migrate`: every cluster selected, listed, compared, or rewritten. */

import { UsageError } from '../../errors.ts';
import { emit, effectiveFormat, type CliContext, type CommonOptions, type Format } from '../../cli/context.ts';
import { requireConsentChannel } from '../../cli/prompt.ts';
import { expandHome } from '../../backup.ts';
import { clusterHeader } from '../explain-run.ts';
import type { StoredKind } from './extract.ts';
import { applyFleet } from './fleet-apply.ts';
import { renderJson, renderText, seedObject } from './output.ts';
import { compareJson, compareText, comparedCount, scanOrError, serviceText, type ClusterScan, type Source } from './sources.ts';

export async function runStored(ctx: CliContext, kind: StoredKind, opts: CommonOptions & Record<string, unknown>): Promise<number> {
  const format = effectiveFormat(ctx, opts.format, opts.output);
  if (format === 'junit') throw new UsageError(`--format junit is not supported for migrate ${kind}`);
  const source = (opts.source ?? 'local') as Source;
  const apply = opts.apply === true;
  if (apply && source !== 'local') throw new UsageError('--apply rewrites what smdoctor found itself: use it with --source local');
  if (apply) requireConsentChannel(ctx, opts.yes, '--apply needs --yes when standard input is not a terminal');
  const warn = (m: string) => ctx.stderr.write(`smdoctor: warning: ${m}\n`);
  const { openClusters } = await import('../cluster.ts');
  const targets = await openClusters(opts, ctx.cwd, ctx.env, warn);
  try {
    const scans = await mapLimit(targets, opts.forks ?? 20, (t) => scanOrError(t, kind, source));
    const single = scans.length === 1;
    if (single && scans[0].failure) throw scans[0].failure; // one cluster: its failure is the command's, as before
    for (const s of scans) {
      const where = single ? '' : `${s.target.api.url}: `;
      if (s.error) warn(`${where}${s.error}`);
      if (!s.found) continue;
      if (s.found.missing) warn(`index ${s.found.index} does not exist on ${s.target.api.url}: no ${kind} to migrate`);
      for (const w of s.found.warnings) warn(`${where}${w.index}/${w.doc_id}${w.path ? ` ${w.path}` : ''}: ${w.message}`);
    }
    if (apply) {
      const backupDir = expandHome(typeof opts.backupDir === 'string' ? opts.backupDir : '~/.smdoctor/backups', ctx.env, ctx.cwd);
      await applyFleet(ctx, scans, { yes: opts.yes, backupDir });
    }
    const tty = Boolean(ctx.stdout.isTTY) && !opts.output;
    const out = single ? render(kind, scans[0], format, tty) : renderFleet(kind, scans, format, tty);
    await emit(ctx, out, opts.output);
    return Math.max(...scans.map((s) => exitCode(s, single ? (m) => ctx.stderr.write(`smdoctor: ${m}\n`) : () => undefined)));
  } finally {
    await Promise.all(targets.map((t) => t.api.close().catch(() => undefined)));
  }
}

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

function render(kind: StoredKind, s: ClusterScan, format: Format, tty: boolean): string {
  if (s.error) return format === 'json' ? JSON.stringify({ error: s.error }, null, 2) : `error: ${s.error}\n`;
  if (s.differences) {
    if (format === 'json') return JSON.stringify(compareJson(s), null, 2);
    const text = compareText(kind, s.differences, comparedCount(s));
    return format === 'markdown' ? `## migrate ${kind} --source compare\n\n\`\`\`text\n${text}\`\`\`\n` : text;
  }
  if (s.service) {
    if (format === 'json') return JSON.stringify(s.service, null, 2);
    const text = serviceText(kind, s.service, { tty });
    return format === 'markdown' ? `## migrate ${kind} --source service\n\n\`\`\`text\n${text}\`\`\`\n` : text;
  }
  const { entries, warnings } = s.found!;
  if (format === 'json') return renderJson(entries, s.results);
  const text = renderText(kind, entries, warnings, { tty, results: s.results });
  return format === 'markdown' ? `## migrate ${kind}\n\n\`\`\`text\n${text}\`\`\`\n` : text;
}

/** One report grouped by cluster: JSON `{clusters: [...]}`, text and markdown one section per cluster. */
function renderFleet(kind: StoredKind, scans: ClusterScan[], format: Format, tty: boolean): string {
  if (format === 'json') {
    const clusters = scans.map((s) => {
      const head = { api_url: s.target.api.url, hosts: s.target.hosts ?? [], ...(s.found ? { index: s.found.index, missing: s.found.missing } : {}) };
      if (s.error && !s.found) return { ...head, error: s.error };
      const body = s.differences ? compareJson(s) : s.service ? { entries: s.service }
        : { entries: s.found!.entries.map((e) => seedObject(e, s.results?.get(e))), warnings: s.found!.warnings };
      return { ...head, ...body, ...(s.error ? { error: s.error } : {}), ...(s.backupPath ? { backup: s.backupPath } : {}) };
    });
    return JSON.stringify({ clusters }, null, 2);
  }
  return scans.map((s) => `${clusterHeader(s.target.api.url, s.target.hosts ?? [], format)}\n${render(kind, s.found || s.service ? { ...s, error: undefined } : s, format === 'markdown' ? 'text' : format, tty)}${s.error && (s.found || s.service) ? `error: ${s.error}\n` : ''}`).join('\n');
}

/** 3 when the cluster failed, the sources differ, or a write failed or met a conflict; 1 while anything still needs replacement or review; else 0. */
function exitCode(s: ClusterScan, say: (m: string) => void): number {
  if (s.error || (s.differences && s.differences.length)) return 3;
  if (s.service && !s.found) return s.service.length ? 1 : 0;
  const { entries, warnings } = s.found!;
  const results = s.results;
  if (results) {
    const bad = [...results.values()].filter((r) => r.status === 'failed' || r.status === 'conflict').length;
    if (bad) {
      say(`${bad} quer${bad === 1 ? 'y was' : 'ies were'} not rewritten (failed or changed since read): see the list`);
      return 3;
    }
    const left = entries.filter((e) => results.get(e)?.status !== 'applied').length;
    return left || warnings.length ? 1 : 0;
  }
  if (s.differences) return entries.length || s.service!.length || warnings.length ? 1 : 0;
  return entries.length || warnings.length ? 1 : 0;
}
