/** `smdoctor migrate jobs|dashboards`: asks before --apply, prints the warnings and the report, decides the exit code. */

import { resolve } from 'node:path';
import { EXIT, formatError, UsageError } from '../../base/errors.ts';
import { VERSION } from '../../base/version.ts';
import { renderMigrateHtml } from '../../report/html/migrate.ts';
import { renderMigratePrometheus } from '../../report/prometheus/migrate.ts';
import { keepReport } from '../history.ts';
import { migrateStoredArgs, type MigrateStoredArgs } from '../args.ts';
import { expandHome } from '../../base/backup.ts';
import type { StoredKind } from '../../migrate/stored/extract.ts';
import { applyFleet, declineAll, pendingApply } from '../../migrate/stored/fleet-apply.ts';
import { notRewritten, renderStored, scanFleet, scanWarnings } from '../../migrate/stored/fleet.ts';
import type { ClusterScan } from '../../migrate/stored/sources.ts';
import { runIo } from '../open-inventory.ts';
import { emit, effectiveFormat, layerDeps, sayTo, type CliContext } from '../context.ts';
import { confirm, requireConsentChannel } from '../prompt.ts';
import { leaseApis } from '../../fix/leases.ts';
import { holderLine } from '../../facts/lease-note.ts';
import type { LeaseState } from '../../fix/lease.ts';
import { stopOnSignals, type StopWords } from '../stop-signals.ts';
import { anySignal } from '../../base/deadline.ts';

const MIGRATE_WORDS: StopWords = {
  first: 'stopping after the current rewrite (the list says which were rewritten; the lease is released)',
  again: 'still stopping after the current rewrite',
};

export async function runStored(ctx: CliContext, kind: StoredKind, flags: Partial<MigrateStoredArgs>): Promise<number> {
  const started = performance.now();
  const opts = migrateStoredArgs(flags);
  const format = effectiveFormat(ctx, opts.format, opts.output);
  if (format === 'junit') throw new UsageError(`--format junit is not supported for migrate ${kind}`);
  const source = opts.source;
  if ((format === 'html' || format === 'prometheus') && source !== 'local')
    throw new UsageError(`--format ${format} lists what smdoctor found itself: use it with --source local`);
  const apply = opts.apply;
  if (apply && source !== 'local')
    throw new UsageError('--apply rewrites what smdoctor found itself: use it with --source local');
  if (apply) requireConsentChannel(ctx, opts.yes, '--apply needs --yes when standard input is not a terminal');
  const say = sayTo(ctx.stderr);
  const warn = (m: string) => say(`warning: ${m}`);
  const { openClusters } = await import('../../migrate/cluster.ts');
  const targets = await openClusters(opts, ctx.cwd, ctx.env, warn, runIo(ctx));
  // a signal stops between rewrites: the list says what was rewritten, the lease is released
  const stops = apply ? stopOnSignals(ctx, ctx.deps?.signals, MIGRATE_WORDS) : null;
  // --apply writes: one writer per cluster, the same lease as fix, taken before anything is read
  const leases = apply
    ? await leaseApis(
        targets.map((t) => ({ url: t.api.url, api: t.api })),
        {
          timeout: opts.timeout,
          env: ctx.env,
          warn,
          ...layerDeps(ctx),
          ...(stops ? { signal: stops.stop } : {}),
          ...(opts.breakLease ? { force: true } : {}),
        },
      ).catch((err: unknown) => {
        stops?.dispose();
        throw err;
      })
    : null;
  try {
    const refused = [...(leases?.states ?? new Map<string, LeaseState>())].flatMap(([url, s]) =>
      s.kind === 'busy'
        ? [`${url} is being fixed by ${holderLine(s.doc)} (--break-lease if that run died)`]
        : s.kind === 'error'
          ? [`${url}: the lease could not be taken: ${s.why}`]
          : [],
    );
    if (refused.length) {
      for (const r of refused) say(`lease: ${r}`);
      say('nothing was changed');
      return EXIT.incomplete;
    }
    const scans = await scanFleet(targets, kind, source, opts.forks);
    const single = scans.length === 1;
    if (single && scans[0].failure) throw scans[0].failure; // one cluster: its failure is the command's, as before
    for (const w of scanWarnings(kind, scans)) warn(w);
    if (apply) {
      const backupDir = expandHome(opts.backupDir, ctx.env, ctx.cwd);
      const stop = (url: string) => anySignal([stops?.stop, leases?.lost(url)]);
      await applyAsked(ctx, scans, opts.yes, backupDir, stop);
      if (stops?.stop.aborted) say('interrupted: stopped between rewrites; the list says which were rewritten');
    }
    const tty = Boolean(ctx.stdout.isTTY) && !opts.output;
    const at = new Date();
    const text =
      format === 'html'
        ? renderMigrateHtml(kind, scans)
        : format === 'prometheus'
          ? renderMigratePrometheus(kind, scans, {
              generatedAt: at.toISOString(),
              durationSeconds: (performance.now() - started) / 1000,
            })
          : renderStored(kind, scans, format, tty);
    await emit(ctx, text, opts.output);
    // stopped by a signal or a lost lease: what is left was not rewritten, and the run is incomplete
    const halted = stops?.stop.aborted || targets.some((t) => leases?.lost(t.api.url)?.aborted);
    const code = Math.max(
      ...scans.map((s) => exitCode(s, single ? say : () => undefined)),
      halted ? EXIT.incomplete : EXIT.ok,
    );
    return (await keepMigrate(ctx, kind, scans, opts, at)) ? code : Math.max(code, EXIT.incomplete);
  } finally {
    stops?.dispose();
    await leases?.release();
    await Promise.all(targets.map((t) => t.api.close().catch(() => undefined)));
  }
}

/** --history: the JSON list kept with the tool, version and time, like the reports of audit and fix. */
async function keepMigrate(
  ctx: CliContext,
  kind: StoredKind,
  scans: ClusterScan[],
  opts: MigrateStoredArgs,
  at: Date,
): Promise<boolean> {
  if (opts.history === undefined) return true;
  const dir = resolve(ctx.cwd, opts.history);
  const doc = {
    tool: 'smdoctor',
    version: VERSION,
    mode: `migrate-${kind}`,
    generated_at: at.toISOString(),
    report: JSON.parse(renderStored(kind, scans, 'json', false)) as unknown,
  };
  try {
    await keepReport(dir, `migrate-${kind}`, `${JSON.stringify(doc, null, 2)}\n`, opts.historyKeep, at);
    return true;
  } catch (e) {
    sayTo(ctx.stderr)(formatError(e), `--history ${dir}: this report could not be kept`);
    return false;
  }
}

/** One question for the whole fleet; progress on standard error only when a person watches it. */
async function applyAsked(
  ctx: CliContext,
  scans: ClusterScan[],
  yes: unknown,
  backupDir: string,
  stop: (url: string) => AbortSignal | undefined,
): Promise<void> {
  const pending = pendingApply(scans);
  if (!pending) return;
  const say = sayTo(ctx.stderr);
  if (!(await confirm(ctx, yes, pending.question))) {
    say('nothing was changed');
    declineAll(pending.todo);
    return;
  }
  const tty = Boolean((ctx.stderr as { isTTY?: boolean }).isTTY);
  await applyFleet(pending.todo, {
    backupDir,
    clusters: scans.length,
    saved: say,
    stop,
    ...(tty ? { progress: say } : {}),
  });
}

/** 3 when the cluster failed, the sources differ, or a write failed or met a conflict; 1 while anything still needs replacement or review; else 0. */
function exitCode(s: ClusterScan, say: (m: string) => void): number {
  if (s.error || (s.differences && s.differences.length)) return EXIT.incomplete;
  if (s.service && !s.found) return s.service.length ? EXIT.findings : EXIT.ok;
  const { entries, warnings } = s.found!;
  const results = s.results;
  if (results) {
    const bad = notRewritten(s);
    if (bad) {
      say(`${bad} quer${bad === 1 ? 'y was' : 'ies were'} not rewritten (failed or changed since read): see the list`);
      return EXIT.incomplete;
    }
    const left = entries.filter((e) => results.get(e)?.status !== 'applied').length;
    return left || warnings.length ? EXIT.findings : EXIT.ok;
  }
  if (s.differences) return entries.length || s.service!.length || warnings.length ? EXIT.findings : EXIT.ok;
  return entries.length || warnings.length ? EXIT.findings : EXIT.ok;
}
