import { ownedActions, planDigest } from '../../fix/plan-digest.ts';
import { EXIT } from '../../base/errors.ts';
import { auditOutcome } from '../../facts/outcome.ts';
import { escapeControls } from '../../text/index.ts';
import { sayTo, type CliContext } from '../context.ts';
import { auditArgs, type AuditArgs } from '../args.ts';
import { deliver } from '../deliver.ts';
import { auditSession } from '../audit-session.ts';

export async function runAuditCommand(ctx: CliContext, flags: Partial<AuditArgs>): Promise<number> {
  const started = performance.now();
  const opts = auditArgs(flags);
  const run = await auditSession(ctx, opts);
  const report = await run.audit();
  const kept = await deliver(ctx, report, opts, { format: run.format, color: run.color, started });
  // what a reviewer approves: fix --plan FILE --approve DIGEST runs this plan or nothing
  if (report.clusters.some((c) => c.pins && ownedActions(c).some((o) => o.action.status === 'planned'))) {
    // only a JSON report is a plan: an HTML or Prometheus -o file is not named
    const plan = opts.output && run.format === 'json' ? escapeControls(opts.output) : 'FILE';
    const how = plan === 'FILE' ? ', FILE being the JSON report: audit --format json -o FILE' : '';
    sayTo(ctx.stderr).raw(
      `smdoctor: plan digest ${planDigest(report)} (fix --plan ${plan} --approve ${planDigest(report)} runs exactly this plan${how})\n`,
    );
  }
  const outcome = auditOutcome(report, run.packs.counts);
  for (const r of outcome.reasons) sayTo(ctx.stderr)(r.text, 'incomplete');
  return kept ? outcome.code : Math.max(outcome.code, EXIT.incomplete);
}
