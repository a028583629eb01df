import { ownedActions, planDigest } from '../../fix/plan-digest.ts';
import { EXIT, UsageError } from '../../base/errors.ts';
import { CHECK_IDS, type CheckId, type Report } from '../../model/index.ts';
import { runAudit as audit, type RunAuditOptions } from '../../audit/run.ts';
import { selectHosts } from '../../inventory/select.ts';
import { clustersInShard, type Shard } from '../../inventory/shard.ts';
import { reachClusters, accessOf } from '../../reach/index.ts';
import type { Inventory } from '../../inventory/types.ts';
import type { AccessOptions } from '../../reach/index.ts';
import { commandInventory } from '../open-inventory.ts';
import { auditOutcome } from '../../facts/outcome.ts';
import { progressRenderer } from '../progress.ts';
import { escapeControls } from '../../text/index.ts';
import { effectiveFormat, layerDeps, sayTo, type CliContext, type CommonOptions } from '../context.ts';
import { auditArgs, type AuditArgs } from '../args.ts';
import { deliver } from '../deliver.ts';
import { packSetup } from '../packs.ts';

/** `--check a,b`: known ids only, in the vendor's troubleshooting order whatever order they were given. */
export function parseChecks(v: unknown): CheckId[] | undefined {
  // given but empty (--check '') is a mistake, not "all checks"
  if (v === undefined || v === null) return undefined;
  const ids = String(v)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = ids.filter((id) => !(CHECK_IDS as readonly string[]).includes(id));
  if (bad.length || !ids.length) {
    throw new UsageError(
      `--check: unknown check id ${bad.map((b) => `'${b}'`).join(', ') || "''"}; valid ids: ${CHECK_IDS.join(', ')}`,
    );
  }
  return CHECK_IDS.filter((id) => ids.includes(id));
}

/** What audit and fix share: checks, format, inventory and hosts, and an audit runner with a progress line. */
export async function auditSetup(ctx: CliContext, opts: AuditArgs) {
  const only = parseChecks(opts.check);
  // a bad pack or waiver is refused before the inventory is read or a host reached
  const packs = await packSetup(ctx, opts);
  const format = effectiveFormat(ctx, opts.format, opts.output);
  const inventory = await commandInventory(ctx, opts);
  const selected = selectHosts(inventory, opts.limit);
  if (!selected.length)
    throw new UsageError(`no hosts in ${inventory.file}${opts.limit ? ` match --limit ${opts.limit}` : ''}`);
  const access = accessOf(opts, ctx.cwd);
  const shard = opts.shard;
  // a shard may hold no cluster (more shards than clusters): it reports none rather than failing its job
  const part = shard ? shardScope(inventory, selected, ctx.env, access, shard) : undefined;
  const hosts = part?.hosts ?? selected;
  const progress = progressRenderer(ctx.stderr);
  const say = sayTo(ctx.stderr);
  const warn = (m: string): void => {
    progress.clear();
    say(m, 'warning');
  };
  const trace =
    opts.verbose > 0
      ? (line: string): void => {
          progress.clear();
          say(line);
        }
      : undefined;
  for (const m of auditWarnings(inventory)) warn(m);
  const { forks, timeout } = opts;
  const auditOpts: RunAuditOptions = {
    inventory,
    hosts,
    access,
    forks,
    timeout,
    env: ctx.env,
    warn,
    ...(only ? { only } : {}),
    ...(packs.packs.length ? { packs: packs.packs } : {}),
    onProgress: progress.update,
    ...(trace ? { trace } : {}),
    ...layerDeps(ctx),
  };
  /** `memo`: serve's cycles, which keep what did not change. */
  const runOnce = async (memo?: RunAuditOptions['memo']): Promise<Report> => {
    try {
      const report = packs.waive(await (ctx.deps?.audit ?? audit)(memo ? { ...auditOpts, memo } : auditOpts), warn);
      return part ? { ...report, shard: part.placed(report) } : report;
    } finally {
      progress.clear();
    }
  };
  const color = format === 'text' && !opts.output && ctx.stdout.isTTY === true && !ctx.env.NO_COLOR;
  return { only, format, color, inventory, hosts, access, warn, trace, packs, audit: runOnce };
}

/** The inventory's warnings an audit repeats: a plain-text api_password works, but is said once per file. */
export function auditWarnings(inventory: Inventory): string[] {
  return (inventory.warnings ?? [])
    .filter((w) => w.code === 'plain-password')
    .map((w) => `${w.pos.file}: ${w.message}`);
}

/** `--shard K/N`: the hosts of this shard's clusters, and each reported cluster's place among all of them. */
function shardScope(
  inventory: Inventory,
  selected: string[],
  env: NodeJS.ProcessEnv,
  access: AccessOptions,
  shard: Shard,
) {
  const mine = clustersInShard(reachClusters(inventory, selected, env, access), shard);
  const position = new Map(mine.map((g) => [g.apiUrl, g.position]));
  const inShard = new Set(mine.flatMap((g) => g.hosts));
  return {
    hosts: selected.filter((h) => inShard.has(h)),
    placed: (report: Report): NonNullable<Report['shard']> => ({
      index: shard.index,
      count: shard.count,
      positions: report.clusters.map((c) => position.get(c.api_url) ?? -1),
    }),
  };
}

export async function runAuditCommand(
  ctx: CliContext,
  flags: CommonOptions & Record<string, unknown>,
): Promise<number> {
  const started = performance.now();
  const opts = auditArgs(flags);
  const run = await auditSetup(ctx, opts);
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
