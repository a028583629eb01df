/** The command line's side of an audit session: --check read, the progress line, warnings and -v on standard error. */
import { UsageError } from '../base/errors.ts';
import { CHECK_IDS, type CheckId } from '../model/index.ts';
import { maxFileBytes } from '../base/limits.ts';
import { openAuditSession, type AuditSession } from '../audit/session.ts';
import type { Format } from '../report/formats.ts';
import { commandInventory } from './open-inventory.ts';
import { progressRenderer } from './progress.ts';
import { effectiveFormat, layerDeps, sayTo, type CliContext } from './context.ts';
import type { AuditArgs } from './args.ts';

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

export interface CliAuditSession extends AuditSession {
  format: Format;
  color: boolean;
  warn: (m: string) => void;
  trace?: (line: string) => void;
}

/** What an audit session reads of a command's arguments: export ansible takes no -v, --limit, -o or --shard. */
export type AuditSessionArgs = Pick<
  AuditArgs,
  'inventory' | 'vaultPasswordFile' | 'vaultId' | 'askVaultPass' | 'forks' | 'timeout' | 'pack'
> &
  Partial<AuditArgs>;

/** What audit, fix, serve and export ansible share: checks, format, inventory and hosts, and an audit with a progress line. */
export async function auditSession(ctx: CliContext, opts: AuditSessionArgs): Promise<CliAuditSession> {
  const only = parseChecks(opts.check);
  const format = effectiveFormat(ctx, opts.format, opts.output);
  const progress = progressRenderer(ctx.stderr);
  const say = sayTo(ctx.stderr);
  const warn = (m: string): void => {
    progress.clear();
    say(m, 'warning');
  };
  const trace =
    (opts.verbose ?? 0) > 0
      ? (line: string): void => {
          progress.clear();
          say(line);
        }
      : undefined;
  const { deps: layers } = layerDeps(ctx);
  const session = await openAuditSession(
    { ...opts, ...(only ? { only } : {}), env: ctx.env },
    {
      cwd: ctx.cwd,
      maxBytes: maxFileBytes(ctx.env),
      now: ctx.deps?.now ?? Date.now,
      openInventory: () => commandInventory(ctx, opts),
      warn,
      onProgress: progress.update,
      settled: progress.clear,
      ...(trace ? { trace } : {}),
      ...(ctx.deps?.audit ? { audit: ctx.deps.audit } : {}),
      ...(ctx.routes ? { routes: ctx.routes } : {}),
      ...(layers ? { layers } : {}),
    },
  );
  const color = format === 'text' && !opts.output && ctx.stdout.isTTY === true && !ctx.env.NO_COLOR;
  return { ...session, format, color, warn, ...(trace ? { trace } : {}) };
}
