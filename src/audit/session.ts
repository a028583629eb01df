/**
 * The audit use case that audit, fix, serve and export ansible share: the packs and waivers loaded, the hosts selected
 * (and placed in a --shard), and an audit of them that can run again (fix after applying, serve every cycle).
 * Nothing here prints or reads the environment: the command line hands in the inventory opener and where warnings go.
 */
import { UsageError } from '../base/errors.ts';
import type { CheckId, Report } from '../model/index.ts';
import { selectHosts } from '../inventory/select.ts';
import { clustersInShard, type Shard } from '../inventory/shard.ts';
import type { Inventory } from '../inventory/types.ts';
import { accessOf, reachClusters, type AccessOptions, type RouteCache, type Trace } from '../reach/index.ts';
import { runAudit, type RunAuditOptions } from './run.ts';
import { packSetup, type PackChoice, type PackIo, type PackSetup } from './pack-setup.ts';

export interface AuditSessionOptions extends PackChoice {
  /** --check's ids (all checks when left out). */
  only?: CheckId[];
  limit?: string;
  shard?: Shard;
  sshConfig?: string;
  jumpChannels?: number;
  forks: number;
  timeout: number;
  env: NodeJS.ProcessEnv;
}

export interface AuditSessionDeps extends PackIo {
  /** The inventory, opened only once the packs and waivers were found good. */
  openInventory(): Promise<Inventory>;
  warn(m: string): void;
  trace?: Trace;
  onProgress?: (done: number, total: number) => void;
  /** Told after each audit, whether it ended or failed (the progress line is cleared). */
  settled?: () => void;
  /** The audit itself (a test's fake); the real one by default. */
  audit?: (o: RunAuditOptions) => Promise<Report>;
  /** The run's ssh configuration as read and its jump connections (serve makes one per reload). */
  routes?: RouteCache;
  /** What the layers below build on, handed to the audit. */
  layers?: RunAuditOptions['deps'];
}

export interface AuditSession {
  only?: CheckId[];
  inventory: Inventory;
  hosts: string[];
  access: AccessOptions;
  packs: PackSetup;
  /** One audit of the session's hosts, the waivers applied and the shard placed; `memo`: serve's cycles keep what did not change. */
  audit(memo?: RunAuditOptions['memo']): Promise<Report>;
}

export async function openAuditSession(o: AuditSessionOptions, deps: AuditSessionDeps): Promise<AuditSession> {
  // a bad pack or waiver is refused before the inventory is read or a host reached
  const packs = await packSetup(o, deps);
  const inventory = await deps.openInventory();
  const selected = selectHosts(inventory, o.limit);
  if (!selected.length)
    throw new UsageError(`no hosts in ${inventory.file}${o.limit ? ` match --limit ${o.limit}` : ''}`);
  const access = accessOf(o, deps.cwd, deps.routes);
  // a shard may hold no cluster (more shards than clusters): it reports none rather than failing its job
  const part = o.shard ? shardScope(inventory, selected, o.env, access, o.shard) : undefined;
  const hosts = part?.hosts ?? selected;
  for (const m of auditWarnings(inventory)) deps.warn(m);
  const auditOpts: RunAuditOptions = {
    inventory,
    hosts,
    access,
    forks: o.forks,
    timeout: o.timeout,
    env: o.env,
    warn: deps.warn,
    ...(o.only ? { only: o.only } : {}),
    ...(packs.packs.length ? { packs: packs.packs } : {}),
    ...(deps.onProgress ? { onProgress: deps.onProgress } : {}),
    ...(deps.trace ? { trace: deps.trace } : {}),
    ...(deps.layers ? { deps: deps.layers } : {}),
  };
  const audit = async (memo?: RunAuditOptions['memo']): Promise<Report> => {
    try {
      const report = packs.waive(await (deps.audit ?? runAudit)(memo ? { ...auditOpts, memo } : auditOpts), deps.warn);
      return part ? { ...report, shard: part.placed(report) } : report;
    } finally {
      deps.settled?.();
    }
  };
  return { ...(o.only ? { only: o.only } : {}), inventory, hosts, access, packs, audit };
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
