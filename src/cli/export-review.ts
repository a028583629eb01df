/**
 * export ansible --plan: like fix --plan, the file is only a request. The fleet is audited again with the plan's checks
 * and the playbook is written from the actions planned now, only when they and the pins equal the file's.
 */
import { InputError } from '../base/errors.ts';
import { plannedChecks } from '../fix/plan-file.ts';
import { planDigest, sameDigest } from '../fix/plan-digest.ts';
import { outsideSelection, planDifferences } from '../fix/drift.ts';
import { reviewedPlan } from '../fix/reviewed.ts';
import { reachClusters } from '../reach/index.ts';
import type { Report } from '../model/index.ts';
import type { Inventory } from '../inventory/types.ts';
import type { AccessOptions } from '../reach/index.ts';
import { escapeControls } from '../text/index.ts';
import { sayTo, type CliContext } from './context.ts';
import type { ExportArgs } from './args.ts';
import { auditSession } from './audit-session.ts';
import { requirePlanPacks } from './packs.ts';

export type Rederived =
  | {
      ok: true;
      plan: Report;
      digest: string;
      inventory: Inventory;
      hosts: string[];
      access: AccessOptions;
      warn: (m: string) => void;
    }
  | { ok: false; differences: string[] };

/** The reviewed plan re-derived from the live fleet; its digest and selection are checked before anything is read. */
export async function rederivedPlan(ctx: CliContext, opts: ExportArgs, reviewed: Report): Promise<Rederived> {
  const plan = String(opts.plan);
  const digest = planDigest(reviewed);
  if (opts.approve !== undefined && !sameDigest(opts.approve, digest))
    throw new InputError(
      `${plan}: its digest is ${digest}, not the approved ${opts.approve}: this is not the plan that was reviewed`,
    );
  // the checks the plan was made with are the checks it is re-derived with
  const run = await auditSession(ctx, { ...opts, check: plannedChecks(reviewed) });
  requirePlanPacks(reviewed, run.packs.packs, plan);
  const outside = outsideSelection(reviewed, reachClusters(run.inventory, run.hosts, ctx.env, run.access));
  if (outside.length)
    throw new InputError(
      `${plan}: the plan names what the inventory does not select (check -i): ${outside.join('; ')}`,
    );
  sayTo(ctx.stderr).raw(
    `smdoctor: plan ${escapeControls(plan)}: digest ${digest}${opts.approve !== undefined ? ' (approved)' : ''}\n`,
  );
  const now = await run.audit();
  const differences = reviewed.clusters.flatMap((c) =>
    planDifferences(
      c,
      now.clusters.find((x) => x.api_url === c.api_url),
    ).map((d) => `${c.api_url}: drift: ${d}`),
  );
  const derived = reviewedPlan(reviewed, now);
  if (differences.length || derived.refused) return { ok: false, differences };
  // the audit's own actions, dated as the reviewed plan for the playbook's header
  const out = {
    ...derived.plan,
    ...(reviewed.generated_at !== undefined ? { generated_at: reviewed.generated_at } : {}),
  };
  return {
    ok: true,
    plan: out,
    digest,
    inventory: run.inventory,
    hosts: run.hosts,
    access: run.access,
    warn: run.warn,
  };
}
