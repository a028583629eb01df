/** `smdoctor fix`: the audit's plan, shown, confirmed, applied in order, then audited again. */
import { EXIT, InputError, UsageError, formatError } from '../../base/errors.ts';
import { parseDuration, plannedChecks, readPlan } from '../../fix/plan-file.ts';
import { planDigest, sameDigest } from '../../fix/plan-digest.ts';
import { outsideSelection } from '../../fix/drift.ts';
import { leasedPlan, refuseClusters, reviewedPlan } from '../../fix/reviewed.ts';
import { reachClusters } from '../../reach/index.ts';
import type { Action, ClusterReport, Report } from '../../model/index.ts';
import { auditOutcome, type Outcome, type Reason } from '../../facts/outcome.ts';
import { renderReport } from '../../report/render.ts';
import { STATUS_MARK, actionLine, clusterLabel } from '../../report/describe.ts';
import { escapeControls, redactText } from '../../text/index.ts';
import { applyPlan } from '../../fix/run.ts';
import { confirmQuestion, fixOutcome, planSize } from '../../fix/plan.ts';
import { fixReport } from '../../fix/report.ts';
import { plannedActions } from '../../fix/apply.ts';
import { layerDeps, sayTo, textWidth, type CliContext } from '../context.ts';
import { deliver } from '../deliver.ts';
import { fixArgs, type FixArgs } from '../args.ts';
import { auditSession, type CliAuditSession } from '../audit-session.ts';
import { requirePlanPacks } from '../packs.ts';
import { confirm, requireConsentChannel } from '../prompt.ts';
import { backupStore, expandHome } from '../../base/backup.ts';
import { rollingProgress } from '../../fix/progress.ts';
import { takeLeases } from '../../fix/leases.ts';
import { holderLine } from '../../facts/lease-note.ts';
import type { LeaseState } from '../../fix/lease.ts';
import { stopOnSignals, type StopSignals } from '../stop-signals.ts';

function stepLine(cluster: ClusterReport, action: Action, step: number): string {
  return `smdoctor: ${STATUS_MARK[action.status]} [${escapeControls(clusterLabel(cluster))}] ${step}. ${escapeControls(redactText(actionLine(action)))}\n`;
}

export async function runFix(ctx: CliContext, flags: Partial<FixArgs>): Promise<number> {
  const started = performance.now();
  const opts = fixArgs(flags);
  requireConsentChannel(ctx, opts.yes, 'fix changes production: pass --yes, or run it from a terminal');
  if (opts.approve !== undefined && opts.plan === undefined)
    throw new UsageError('--approve needs --plan: it approves the digest of a plan file');
  // a reviewed plan is checked (shape, age, digest, selection) before anything connects
  const reviewed =
    opts.plan !== undefined ? await readPlan(opts.plan, parseDuration(opts.planMaxAge), Date.now()) : null;
  // the checks the plan was made with are the checks it is re-derived with
  const checks = reviewed && opts.check === undefined ? plannedChecks(reviewed) : undefined;
  const run = await auditSession(ctx, checks ? { ...opts, check: checks } : opts);
  const { inventory, hosts, access, warn } = run;
  if (reviewed) {
    requirePlanPacks(reviewed, run.packs.packs, String(opts.plan));
    const digest = planDigest(reviewed);
    if (typeof opts.approve === 'string' && !sameDigest(opts.approve, digest))
      throw new InputError(
        `${String(opts.plan)}: its digest is ${digest}, not the approved ${opts.approve}: this is not the plan that was reviewed`,
      );
    const outside = outsideSelection(reviewed, reachClusters(inventory, hosts, ctx.env, access));
    if (outside.length)
      throw new InputError(
        `${String(opts.plan)}: the plan names what this run may not touch (check -i and --limit): ${outside.join('; ')}`,
      );
    sayTo(ctx.stderr).raw(
      `smdoctor: plan ${escapeControls(String(opts.plan))}: digest ${digest}${opts.approve !== undefined ? ' (approved)' : ''}\n`,
    );
  }
  const stops = stopOnSignals(ctx, ctx.deps?.signals);
  try {
    // every action is derived from the live cluster now; a reviewed plan only says which of them may run
    const first = { ...(await run.audit()), mode: 'fix' as const };
    const derived = reviewed ? reviewedPlan(reviewed, first) : { plan: first, refused: 0 };
    // one fix per cluster, and only where there is something to do: a cluster with nothing to do sees only reads
    const wanted = derived.plan.clusters.filter((c) => plannedActions(c).length > 0).map((c) => c.api_url);
    if (!wanted.length) return await fixPlan(ctx, opts, { ...run, derived, stops, started, lost: () => undefined });
    const leases = await (ctx.deps?.leases ?? takeLeases)({
      inventory,
      hosts,
      only: wanted,
      access,
      timeout: opts.timeout,
      env: ctx.env,
      warn,
      signal: stops.stop,
      ...(opts.breakLease ? { force: true } : {}),
      ...layerDeps(ctx),
    });
    try {
      const notHeld = leaseRefusals(leases.states);
      // every cluster with something to do is another run's: refused at once
      const busy = [...leases.states.values()].filter((s) => s.kind === 'busy').length;
      if (busy && busy === wanted.length) {
        const say = sayTo(ctx.stderr);
        for (const why of notHeld.values()) say(why);
        say('nothing was changed');
        return EXIT.incomplete;
      }
      const held = [...leases.states].filter(([, s]) => s.kind === 'held').map(([url]) => url);
      // under the lease the cluster is read again: only an unchanged plan goes ahead
      const under = held.length ? leasedPlan(derived.plan, { ...(await run.audit()), mode: 'fix' }, held) : null;
      const refused = refuseClusters(under?.plan ?? derived.plan, (url) => notHeld.get(url) ?? null);
      return await fixPlan(ctx, opts, {
        ...run,
        derived: { plan: refused.plan, refused: derived.refused + (under?.refused ?? 0) + refused.refused },
        stops,
        started,
        lost: leases.lost,
      });
    } finally {
      await leases.release();
    }
  } finally {
    stops.dispose();
  }
}

/** Why nothing ran when every cluster with something to do was refused: the refusals (drift, another run's lease). */
export const refusals = (o: Outcome): Reason[] => o.reasons.filter((r) => r.code === 'refused');

/** The refusal of each cluster whose lease is not ours, by api_url. */
function leaseRefusals(states: Map<string, LeaseState>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [url, state] of states) {
    if (state.kind === 'busy')
      out.set(url, `lease: ${url} is being fixed by ${holderLine(state.doc)} (--break-lease if that run died)`);
    else if (state.kind === 'error') out.set(url, `lease: ${url}: the fix lease could not be taken: ${state.why}`);
  }
  return out;
}

async function fixPlan(
  ctx: CliContext,
  opts: FixArgs,
  setup: CliAuditSession & {
    derived: { plan: Report; refused: number };
    stops: StopSignals;
    started: number;
    /** The cluster's lease was lost: its steps stop. */
    lost: (url: string) => AbortSignal | undefined;
  },
): Promise<number> {
  const {
    format,
    color,
    inventory,
    hosts,
    access,
    warn,
    trace,
    audit: auditAgain,
    derived,
    stops,
    started,
    lost,
  } = setup;
  const say = sayTo(ctx.stderr);
  const plan = derived.plan;
  const drifted = derived.refused;
  // the plan goes to stdout only when stdout is a text report; json on stdout keeps stdout for the final report
  const planToStdout = format === 'text' && !opts.output;
  // a report that could not be kept in --history makes the run incomplete (exit 3), whatever else it did
  let kept = true;
  const finish = async (finalReport: Report): Promise<void> => {
    kept = (await deliver(ctx, finalReport, opts, { format, color, started })) && kept;
  };
  const code = (exitCode: number): number => (kept ? exitCode : Math.max(exitCode, EXIT.incomplete));
  const size = planSize(plan);
  const planOnly = async (message: string): Promise<number> => {
    await finish(plan);
    say(message);
    const outcome = auditOutcome(plan, setup.packs.counts);
    for (const reason of outcome.reasons) say(reason.text, 'incomplete');
    return code(outcome.code);
  };
  if (size.actions === 0 && drifted > 0) {
    await finish(plan);
    for (const reason of refusals(fixOutcome(plan, null, setup.packs.counts))) say(reason.text, 'incomplete');
    say('nothing was changed: the cluster drifted from the plan or is being fixed');
    return code(EXIT.incomplete);
  }
  if (size.actions === 0) return planOnly('nothing to fix: no action is planned');

  // a person is asked about the plan they can see; with --yes the step lines and the final report say it all
  if (!opts.yes) {
    const verbose = opts.verbose > 0;
    if (planToStdout)
      ctx.stdout.write(renderReport(plan, 'text', { color, verbose, width: textWidth(ctx, ctx.stdout) }));
    else
      say.raw(
        renderReport(plan, 'text', {
          color: ctx.stderr.isTTY === true && !ctx.env.NO_COLOR,
          verbose,
          width: textWidth(ctx, ctx.stderr),
        }),
      );
  }
  if (!(await confirm(ctx, opts.yes, confirmQuestion(size)))) {
    if (planToStdout) {
      say('nothing was changed');
      return auditOutcome(plan, setup.packs.counts).code;
    }
    return planOnly('nothing was changed');
  }

  const backup = backupStore(expandHome(opts.backupDir, ctx.env, ctx.cwd));
  const waits = rollingProgress(ctx.stderr);
  try {
    const applied = await (ctx.deps?.apply ?? applyPlan)(plan, {
      inventory,
      hosts,
      access,
      timeout: opts.timeout,
      env: ctx.env,
      backup,
      warn,
      signal: stops.stop,
      urgent: stops.urgent,
      stopCluster: lost,
      ...(trace ? { trace } : {}),
      ...(opts.allowYellow ? { allowYellow: true } : {}),
      ...layerDeps(ctx),
      onProgress: (cluster, progress) => waits.update(clusterLabel(cluster), progress),
      onStep: (cluster, action, step) => {
        waits.clear();
        say.raw(stepLine(cluster, action, step));
      },
    });
    waits.clear();
    let after: Report | null = null;
    try {
      after = await auditAgain();
    } catch (err) {
      say(formatError(err), 'the audit after the fix failed');
    }
    const report = fixReport(plan, applied, after);
    await finish(report);
    const outcome = fixOutcome(report, after, setup.packs.counts);
    for (const reason of outcome.reasons) say(reason.text, 'incomplete');
    return code(outcome.code);
  } finally {
    waits.clear();
  }
}
