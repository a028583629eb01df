/**
 * Each command's flags, typed: commander's parsed record (or a caller's partial one) read once, at the top of the
 * command, defaults from the one table filled in. Below that line a command reads its `…Args`, never the record.
 */
import type { Shard } from '../inventory/shard.ts';
import type { Format } from '../report/formats.ts';
import { DEFAULTS } from '../base/defaults.ts';
import {
  exportOptions,
  fixOptions,
  fleetOptions,
  labOptions,
  migrateOptions,
  serveOptions,
  type FleetOptions,
  type LabOptions,
  type MigrateOptions,
  type ServeOptions,
} from './options.ts';

/** Commander's parsed flags of one command, as it hands them over. */
export type Flags = Record<string, unknown>;

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);
const on = (v: unknown): boolean => v === true;
const optional = <K extends string, V>(key: K, v: V | undefined): Partial<Record<K, V>> =>
  (v === undefined ? {} : { [key]: v }) as Partial<Record<K, V>>;

/** What every fleet command reads: the inventory and its vault, the hosts, how they are reached, where output goes. */
export interface FleetArgs extends FleetOptions {
  inventory: string[];
  playbookDir?: string;
  vaultPasswordFile: string[];
  vaultId: string[];
  askVaultPass: boolean;
  limit?: string;
  format?: Format;
  output?: string;
  sshConfig?: string;
  jumpChannels: number;
  verbose: number;
}

export function fleetArgs(o: Flags): FleetArgs {
  return {
    ...fleetOptions(o),
    inventory: texts(o.inventory),
    ...optional('playbookDir', text(o.playbookDir)),
    vaultPasswordFile: texts(o.vaultPasswordFile),
    vaultId: texts(o.vaultId),
    askVaultPass: on(o.askVaultPass),
    ...optional('limit', text(o.limit)),
    ...optional('format', text(o.format) as Format | undefined),
    ...optional('output', text(o.output)),
    ...optional('sshConfig', text(o.sshConfig)),
    jumpChannels: typeof o.jumpChannels === 'number' ? o.jumpChannels : DEFAULTS.jumpChannels,
    verbose: typeof o.verbose === 'number' ? o.verbose : DEFAULTS.verbose,
  };
}

/** --pack, --waivers, --severity (the level is checked where the packs are loaded). */
export interface PackArgs {
  pack: string[];
  waivers?: string;
  severity?: string;
}

export const packArgs = (o: Flags): PackArgs => ({
  pack: texts(o.pack),
  ...optional('waivers', text(o.waivers)),
  ...optional('severity', o.severity === undefined ? undefined : String(o.severity)),
});

/** What an audit run reads (audit, fix, serve and export ansible audit alike). */
export interface AuditArgs extends FleetArgs, PackArgs {
  /** --check as given: its ids are checked when the run is set up. */
  check?: string;
  shard?: Shard;
  history?: string;
}

export const auditArgs = (o: Flags): AuditArgs => ({
  ...fleetArgs(o),
  ...packArgs(o),
  ...optional('check', o.check === undefined || o.check === null ? undefined : String(o.check)),
  ...optional('shard', o.shard as Shard | undefined),
  ...optional('history', text(o.history)),
});

/** --plan FILE and what goes with it: fix and export ansible carry out a reviewed plan alike. */
export interface PlanArgs {
  plan?: string;
  approve?: string;
  planMaxAge: string;
  allowYellow: boolean;
}

const planArgs = (o: Flags): Omit<PlanArgs, 'planMaxAge'> => ({
  ...optional('plan', text(o.plan)),
  ...optional('approve', text(o.approve)),
  allowYellow: on(o.allowYellow),
});

export interface FixArgs extends AuditArgs, PlanArgs {
  yes: boolean;
  backupDir: string;
  breakLease: boolean;
}

export const fixArgs = (o: Flags): FixArgs => ({
  ...auditArgs(o),
  ...fixOptions(o),
  ...planArgs(o),
  yes: on(o.yes),
  breakLease: on(o.breakLease),
});

/** export ansible: the plan and the playbook directory; its audit takes the table's jump channels and -v off. */
export interface ExportArgs extends AuditArgs, PlanArgs {
  outputDir?: string;
}

export const exportArgs = (o: Flags): ExportArgs => ({
  ...auditArgs(o),
  ...exportOptions(o),
  ...planArgs(o),
  ...optional('outputDir', text(o.outputDir)),
});

export interface ServeArgs extends AuditArgs, ServeOptions {
  tlsCert?: string;
  tlsKey?: string;
  authFile?: string;
  /** --hash-secret, or --hash-secret USER. */
  hashSecret?: string | true;
}

export const serveArgs = (o: Flags): ServeArgs => ({
  ...auditArgs(o),
  ...serveOptions(o),
  ...optional('tlsCert', text(o.tlsCert)),
  ...optional('tlsKey', text(o.tlsKey)),
  ...optional('authFile', text(o.authFile)),
  ...optional('hashSecret', o.hashSecret === true ? (true as const) : text(o.hashSecret)),
});

/** migrate explain: the query's sources beside the fleet's. */
export interface MigrateExplainArgs extends FleetArgs, Pick<MigrateOptions, 'source'> {
  file?: string;
  mappings?: string;
  macros?: string;
}

export const migrateExplainArgs = (o: Flags): MigrateExplainArgs => ({
  ...fleetArgs(o),
  source: migrateOptions(o).source,
  ...optional('file', text(o.file)),
  ...optional('mappings', text(o.mappings)),
  ...optional('macros', text(o.macros)),
});

/** migrate jobs and dashboards: the list, and with --apply the rewrite. */
export interface MigrateStoredArgs extends FleetArgs, MigrateOptions {
  history?: string;
  apply: boolean;
  yes: boolean;
  breakLease: boolean;
}

export const migrateStoredArgs = (o: Flags): MigrateStoredArgs => ({
  ...fleetArgs(o),
  ...migrateOptions(o),
  ...optional('history', text(o.history)),
  apply: on(o.apply),
  yes: on(o.yes),
  breakLease: on(o.breakLease),
});

/** inventory: exactly one of --list, --graph, --host NAME (checked by the command). */
export interface InventoryArgs extends FleetArgs {
  list: boolean;
  graph: boolean;
  host?: string;
}

export const inventoryArgs = (o: Flags): InventoryArgs => ({
  ...fleetArgs(o),
  list: on(o.list),
  graph: on(o.graph),
  ...optional('host', text(o.host)),
});

export interface LabArgs extends LabOptions {
  bastion: boolean;
  format?: 'text' | 'json';
}

export const labArgs = (o: Flags): LabArgs => ({
  ...labOptions(o),
  bastion: on(o.bastion),
  ...optional('format', text(o.format) as LabArgs['format']),
});

export interface DiffArgs {
  history?: string;
  format?: 'text' | 'json' | 'markdown';
  output?: string;
}

export const diffArgs = (o: Flags): DiffArgs => ({
  ...optional('history', text(o.history)),
  ...optional('format', text(o.format) as DiffArgs['format']),
  ...optional('output', text(o.output)),
});

export interface MergeArgs {
  format?: Format;
  output?: string;
  severity?: string;
}

export const mergeArgs = (o: Flags): MergeArgs => ({
  ...optional('format', text(o.format) as Format | undefined),
  ...optional('output', text(o.output)),
  ...optional('severity', o.severity === undefined ? undefined : String(o.severity)),
});

export type PackListArgs = Pick<PackArgs, 'pack'>;

export const packListArgs = (o: Flags): PackListArgs => ({ pack: texts(o.pack) });
