/**
 * Each command's flags, in help order, and its typed arguments read from them (terraform's per-command `Parse…`):
 * commander's values (or a caller's partial ones) read once, at the top of the command, defaults from the table
 * filled in. Below that line a command reads its `…Args`, never commander's record.
 */
import { argsOf, type ArgsOf, type Flag } from './flag.ts';
import { FLAGS } from './options.ts';

const parser =
  <F extends readonly Flag[]>(flags: F) =>
  (given: Partial<ArgsOf<F>>): ArgsOf<F> =>
    argsOf(flags, given);

/** -i and the vault options. */
const INVENTORY = [
  FLAGS.inventory,
  FLAGS.playbookDir,
  FLAGS.vaultPasswordFile,
  FLAGS.vaultId,
  FLAGS.askVaultPass,
] as const;

/** What every fleet command takes: the inventory and its vault, the hosts, where output goes, how hosts are reached. */
const FLEET = [
  ...INVENTORY,
  FLAGS.limit,
  FLAGS.format(),
  FLAGS.output,
  FLAGS.forks,
  FLAGS.sshConfig,
  FLAGS.jumpChannels,
  FLAGS.timeout,
  FLAGS.verbose,
] as const;

/** --history DIR and --history-keep N: audit, fix, serve and migrate keep their JSON reports. */
const HISTORY = [
  FLAGS.history('keep this JSON report in DIR too (time-stamped); the HTML report shows the last runs'),
  FLAGS.historyKeep,
] as const;

/** --pack, --waivers, --severity: every command that audits (docs/packs.md). */
const PACKS = [FLAGS.pack, FLAGS.waivers, FLAGS.severity] as const;

export const AUDIT = [
  ...FLEET,
  ...HISTORY,
  ...PACKS,
  FLAGS.check,
  FLAGS.shard(
    "audit shard K of N (K from 0): a stable split by cluster, every host in one shard; `smdoctor merge` joins the shards' JSON reports",
  ),
] as const;
export type AuditArgs = ArgsOf<typeof AUDIT>;
export const auditArgs = parser(AUDIT);

export const FIX = [
  ...FLEET,
  ...HISTORY,
  ...PACKS,
  FLAGS.check,
  FLAGS.yes('do not ask for confirmation'),
  FLAGS.backupDir('where the old content of every edited file is kept'),
  FLAGS.allowYellow(
    'restart on a yellow cluster that is settled (all data nodes present, no shard moving), and wait for that instead of green',
  ),
  FLAGS.plan(
    'a reviewed plan (a JSON report of audit): go ahead in a cluster only if the audit plans exactly the same now',
  ),
  FLAGS.breakLease('take the lease of each cluster even if another fix holds it (only when that run died)'),
  FLAGS.approve,
  FLAGS.planMaxAge,
] as const;
export type FixArgs = ArgsOf<typeof FIX>;
export const fixArgs = parser(FIX);

export const MIGRATE_EXPLAIN = [...FLEET, FLAGS.file, FLAGS.mappings, FLAGS.macros, FLAGS.source] as const;
export type MigrateExplainArgs = ArgsOf<typeof MIGRATE_EXPLAIN>;
export const migrateExplainArgs = parser(MIGRATE_EXPLAIN);

/** migrate jobs and dashboards: the list, and with --apply the rewrite. */
export const MIGRATE_STORED = [
  ...FLEET,
  FLAGS.apply,
  FLAGS.yes('with --apply: do not ask for confirmation'),
  FLAGS.backupDir('with --apply: where the original documents are kept'),
  FLAGS.breakLease("with --apply: take the cluster's lease even if a fix holds it (only when that run died)"),
  FLAGS.source,
  ...HISTORY,
] as const;
export type MigrateStoredArgs = ArgsOf<typeof MIGRATE_STORED>;
export const migrateStoredArgs = parser(MIGRATE_STORED);

/** export ansible: the plan and the playbook directory; its audit takes the table's jump channels and -v off. */
export const EXPORT = [
  ...PACKS,
  FLAGS.plan('the reviewed plan (a JSON report of audit): exported only if the audit plans exactly the same now'),
  FLAGS.outputDir,
  ...INVENTORY,
  FLAGS.sshConfig,
  FLAGS.planMaxAge,
  FLAGS.approve,
  FLAGS.forks,
  FLAGS.allowYellow('the playbook restarts on, and waits for, a settled yellow instead of green'),
  FLAGS.timeout,
] as const;
export type ExportArgs = ArgsOf<typeof EXPORT>;
export const exportArgs = parser(EXPORT);

export const PACK_LIST = [FLAGS.pack] as const;
export type PackListArgs = ArgsOf<typeof PACK_LIST>;
export const packListArgs = parser(PACK_LIST);

export const LAB_UP = [FLAGS.labDir, FLAGS.scenario, FLAGS.layout, FLAGS.bastion] as const;
export const LAB_STATUS = [FLAGS.labDir, FLAGS.format(['text', 'json'] as const)] as const;
export const LAB_DOWN = [FLAGS.labDir] as const;
export type LabArgs = ArgsOf<typeof LAB_UP> & ArgsOf<typeof LAB_STATUS>;
export const labArgs = (given: Partial<LabArgs>): LabArgs => ({
  ...argsOf(LAB_UP, given),
  ...argsOf(LAB_STATUS, given),
});

/** inventory: exactly one of --list, --graph, --host NAME (checked by the command). */
export const INVENTORY_CMD = [...FLEET, FLAGS.list, FLAGS.graph, FLAGS.host] as const;
export type InventoryArgs = ArgsOf<typeof INVENTORY_CMD>;
export const inventoryArgs = parser(INVENTORY_CMD);

export const DIFF = [
  FLAGS.history('compare the last two audit or fix reports kept in DIR'),
  FLAGS.format(['text', 'json', 'markdown'] as const),
  FLAGS.output,
] as const;
export type DiffArgs = ArgsOf<typeof DIFF>;
export const diffArgs = parser(DIFF);

export const SERVE = [
  ...FLEET,
  ...HISTORY,
  ...PACKS,
  FLAGS.check,
  FLAGS.shard('serve shard K of N (K from 0), as audit --shard splits the fleet'),
  FLAGS.interval,
  FLAGS.fullEvery,
  FLAGS.listen,
  FLAGS.tlsCert,
  FLAGS.tlsKey,
  FLAGS.authFile,
  FLAGS.hashSecret,
  FLAGS.logFormat,
] as const;
export type ServeArgs = ArgsOf<typeof SERVE>;
export const serveArgs = parser(SERVE);

export const MERGE = [FLAGS.format(), FLAGS.output, FLAGS.severity] as const;
export type MergeArgs = ArgsOf<typeof MERGE>;
export const mergeArgs = parser(MERGE);
