/** `smdoctor fix`: the audit's plan, shown, confirmed, applied in order, then audited again. */
import { UsageError, formatError } from '../../errors.ts';
import type { Action, ClusterReport, Report } from '../../audit/types.ts';
import { runAudit as audit, type RunAuditOptions } from '../../audit/run.ts';
import { auditOutcome } from '../../audit/outcome.ts';
import { progressRenderer } from '../../audit/progress.ts';
import { loadInventory, resolveInventoryPath, selectHosts } from '../../inventory/index.ts';
import { renderReport } from '../../report/index.ts';
import { STATUS_MARK, actionLine, clusterLabel } from '../../report/describe.ts';
import { redactText } from '../../secrets.ts';
import {
  agrees, applyPlan, attachAfter, backupStore, confirmQuestion, expandBackupDir, fixOutcome, planSize, type ApplyPlanOptions,
} from '../../fix/index.ts';
import { effectiveFormat, emit, type CliContext, type CommonOptions } from '../context.ts';
import { parseChecks } from './audit.ts';

/** Seams for tests: the audit, the apply, and which process signals stop the run between steps. */
export interface FixCommandDeps {
  audit?: (o: RunAuditOptions) => Promise<Report>;
  apply?: (r: Report, o: ApplyPlanOptions) => Promise<Report>;
  signals?: NodeJS.Signals[];
}

/** One line from standard input (the rest of the stream is left alone). */
export function readLine(stdin: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let buf = '';
    const done = (): void => {
      stdin.off('data', onData);
      stdin.off('end', done);
      stdin.pause();
      resolve(buf.split(/\r?\n/)[0] ?? '');
    };
    const onData = (d: Buffer | string): void => {
      buf += d.toString();
      if (buf.includes('\n')) done();
    };
    stdin.on('data', onData);
    stdin.once('end', done);
    stdin.resume();
  });
}

function stepLine(c: ClusterReport, a: Action, n: number): string {
  return `smdoctor: ${STATUS_MARK[a.status]} [${clusterLabel(c)}] ${n}. ${redactText(actionLine(a))}\n`;
}

export async function runFix(ctx: CliContext, opts: CommonOptions & Record<string, unknown>, seams: FixCommandDeps = {}): Promise<number> {
  const only = parseChecks(opts.check);
  const format = effectiveFormat(ctx, opts.format, opts.output);
  const inventory = await loadInventory(resolveInventoryPath(opts.inventory, ctx.cwd));
  const hosts = selectHosts(inventory, opts.limit);
  if (!hosts.length) throw new UsageError(`no hosts in ${inventory.file}${opts.limit ? ` match --limit ${opts.limit}` : ''}`);
  const progress = progressRenderer(ctx.stderr);
  const warn = (m: string): void => {
    progress.clear();
    ctx.stderr.write(`smdoctor: warning: ${m}\n`);
  };
  const auditOpts: RunAuditOptions = {
    inventory, hosts, forks: opts.forks, timeout: opts.timeout, env: ctx.env, warn, ...(only ? { only } : {}), onProgress: progress.update,
  };
  const runAudit = async (): Promise<Report> => {
    try {
      return await (seams.audit ?? audit)(auditOpts);
    } finally {
      progress.clear();
    }
  };

  const plan = await runAudit();
  plan.mode = 'fix';
  // the plan goes to stdout only when stdout is a text report; json on stdout keeps stdout for the final report
  const planToStdout = format === 'text' && !opts.output;
  const color = format === 'text' && !opts.output && ctx.stdout.isTTY === true && !ctx.env.NO_COLOR;
  const finish = async (r: Report): Promise<void> => emit(ctx, renderReport(r, format, { color }), opts.output);
  const size = planSize(plan);
  const planOnly = async (message: string): Promise<number> => {
    await finish(plan);
    ctx.stderr.write(`smdoctor: ${message}\n`);
    const outcome = auditOutcome(plan);
    for (const r of outcome.reasons) ctx.stderr.write(`smdoctor: incomplete: ${r}\n`);
    return outcome.code;
  };
  if (size.actions === 0) return planOnly('nothing to fix: no action is planned');

  if (planToStdout) ctx.stdout.write(renderReport(plan, 'text', { color }));
  else ctx.stderr.write(renderReport(plan, 'text', { color: ctx.stderr.isTTY === true && !ctx.env.NO_COLOR }));
  if (!opts.yes) {
    if ((ctx.stdin as { isTTY?: boolean }).isTTY !== true) throw new UsageError('fix changes production: pass --yes, or run it from a terminal');
    ctx.stderr.write(confirmQuestion(size));
    if (!agrees(await readLine(ctx.stdin))) {
      if (planToStdout) {
        ctx.stderr.write('smdoctor: nothing was changed\n');
        return auditOutcome(plan).code;
      }
      return planOnly('nothing was changed');
    }
  }

  const backup = backupStore(expandBackupDir(String(opts.backupDir ?? '~/.smdoctor/backups'), ctx.env, ctx.cwd));
  const stopper = new AbortController();
  const onSignal = (): void => {
    if (!stopper.signal.aborted) ctx.stderr.write('smdoctor: stopping after the current step\n');
    stopper.abort();
  };
  const signals = seams.signals ?? ['SIGINT', 'SIGTERM'];
  for (const s of signals) process.on(s, onSignal);
  try {
    await (seams.apply ?? applyPlan)(plan, {
      inventory, hosts, timeout: opts.timeout, env: ctx.env, backup, warn, signal: stopper.signal,
      onStep: (c, a, n) => ctx.stderr.write(stepLine(c, a, n)),
    });
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }

  let after: Report | null = null;
  try {
    after = await runAudit();
    attachAfter(plan, after);
  } catch (err) {
    ctx.stderr.write(`smdoctor: the audit after the fix failed: ${formatError(err)}\n`);
  }
  await finish(plan);
  const outcome = fixOutcome(plan, after);
  for (const r of outcome.reasons) ctx.stderr.write(`smdoctor: incomplete: ${r}\n`);
  return outcome.code;
}
