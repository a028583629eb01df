import { UsageError } from '../../errors.ts';
import { CHECK_IDS, type CheckId, type Report } from '../../audit/types.ts';
import { runAudit as audit, type RunAuditOptions } from '../../audit/run.ts';
import { loadInventory, resolveInventoryPath, selectHosts } from '../../inventory/index.ts';
import { auditOutcome } from '../../audit/outcome.ts';
import { progressRenderer } from '../../audit/progress.ts';
import { renderReport } from '../../report/index.ts';
import { effectiveFormat, emit, type CliContext, type CommonOptions } from '../context.ts';

/** `--check a,b`: known ids only, in the seed's order whatever order they were given. */
export function parseChecks(v: unknown): CheckId[] | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const ids = String(v).split(',').map((s) => s.trim()).filter(Boolean);
  const bad = ids.filter((id) => !(CHECK_IDS as readonly string[]).includes(id));
  if (bad.length || !ids.length) {
    throw new UsageError(`--check: unknown check id ${bad.map((b) => `'${b}'`).join(', ') || "''"}; valid ids: ${CHECK_IDS.join(', ')}`);
  }
  return CHECK_IDS.filter((id) => ids.includes(id));
}

/** Seam for tests: the audit itself. */
export interface AuditCommandDeps {
  audit?: (o: RunAuditOptions) => Promise<Report>;
}

export async function runAudit(ctx: CliContext, opts: CommonOptions & Record<string, unknown>, seams: AuditCommandDeps = {}): Promise<number> {
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
  let report: Report;
  try {
    report = await (seams.audit ?? audit)({
      inventory, hosts, forks: opts.forks, timeout: opts.timeout, env: ctx.env, warn,
      ...(only ? { only } : {}), onProgress: progress.update,
    });
  } finally {
    progress.clear();
  }
  const color = format === 'text' && !opts.output && ctx.stdout.isTTY === true && !ctx.env.NO_COLOR;
  await emit(ctx, renderReport(report, format, { color }), opts.output);
  const outcome = auditOutcome(report);
  for (const r of outcome.reasons) ctx.stderr.write(`smdoctor: incomplete: ${r}\n`);
  return outcome.code;
}

