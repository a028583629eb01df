/**
 * Every command's options in one place: their defaults (which the help shows), the commander definitions shared by
 * commands, and typed readers that fill in a default where a command is called without commander (tests, library).
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Source } from '../migrate/explain-run.ts';
import { CHECK_IDS, SEVERITIES } from '../model/index.ts';
import { FORMATS } from '../report/formats.ts';
import { parseShard, type Shard } from '../inventory/shard.ts';

/** The one source of every option default. */
export const DEFAULTS = {
  forks: 20,
  /** Seconds per remote command and REST request. */
  timeout: 60,
  jumpChannels: 10,
  historyKeep: 50,
  backupDir: '~/.smdoctor/backups',
  planMaxAge: '24h',
  source: 'local',
  labDir: '.lab',
  scenario: 'broken',
  layout: 'inventory',
  /** serve: seconds between the end of one audit cycle and the start of the next (±10 % jitter). */
  interval: 60,
  listen: '127.0.0.1:9720',
  logFormat: 'text',
} as const;

/** Node's timers hold at most 2^31-1 ms: a longer duration would fire at once. */
export const MAX_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

export function positiveInt(name: string) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`${name} must be a positive integer`);
    return n;
  };
}

export function seconds(name: string) {
  return (v: string): number => {
    const n = positiveInt(name)(v);
    if (n > MAX_SECONDS)
      throw new InvalidArgumentError(`${name} must be at most ${MAX_SECONDS} seconds (about 24 days)`);
    return n;
  };
}

/** `--shard K/N`, checked when the command line is read. */
export function shardArg(v: string): Shard {
  try {
    return parseShard(v);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message.replace(/^--shard: /, ''));
  }
}

export const collect = (v: string, prev: string[]): string[] => [...prev, v];

/** Options every fleet command takes: inventory, vault, selection, output, reach. */
export function addCommon(cmd: Command): Command {
  return addInventory(
    cmd,
    'Ansible inventory: a YAML/INI file, a directory, a script or JSON; repeatable (default: $SMDOCTOR_INVENTORY, else .lab/inventory.yml while the lab is up)',
  )
    .option('--limit <pattern>', 'hosts or groups: names, *, a:b (union), a:&b (intersection), a:!b (exclusion)')
    .addOption(
      new Option('--format <format>', 'output format (default: text on a terminal, else json)').choices(FORMATS),
    )
    .option('-o, --output <file>', 'write the report to FILE instead of standard output')
    .option('--forks <n>', 'hosts gathered in parallel', positiveInt('--forks'), DEFAULTS.forks)
    .option('--ssh-config <file>', 'OpenSSH client configuration (default: ~/.ssh/config when it exists)')
    .option(
      '--jump-channels <n>',
      'channels open at once on each jump host; more wait their turn',
      positiveInt('--jump-channels'),
      DEFAULTS.jumpChannels,
    )
    .option('--timeout <seconds>', 'timeout of each remote command', seconds('--timeout'), DEFAULTS.timeout)
    .option('-v, --verbose', 'more detail (repeat for more)', (_v: string, prev: number) => prev + 1, 0);
}

/** -i and the vault options. */
export function addInventory(cmd: Command, inventoryHelp: string): Command {
  return cmd
    .option('-i, --inventory <source>', inventoryHelp, collect, [])
    .option(
      '--vault-password-file <file>',
      'vault password from FILE, or from what FILE prints when executable; repeatable',
      collect,
      [],
    )
    .option(
      '--vault-id <[label@]source>',
      "a vault password: a file, an executable, or 'prompt'; repeatable",
      collect,
      [],
    )
    .option('--ask-vault-pass', 'ask for the vault password on the terminal');
}

/** --history DIR and --history-keep N: audit, fix and migrate keep their JSON reports. */
export const addHistory = (cmd: Command): Command =>
  cmd
    .option('--history <dir>', 'keep this JSON report in DIR too (time-stamped); the HTML report shows the last runs')
    .option(
      '--history-keep <n>',
      'how many reports of each kind --history keeps',
      positiveInt('--history-keep'),
      DEFAULTS.historyKeep,
    );

export const sourceOption = (): Option =>
  new Option(
    '--source <where>',
    "local: smdoctor's own analysis; service: the cluster's migration endpoints; compare: both, every difference (exit 3)",
  )
    .choices(['local', 'service', 'compare'])
    .default(DEFAULTS.source);

export const planMaxAgeOption = (): Option =>
  new Option('--plan-max-age <duration>', 'refuse a plan older than this (e.g. 90m, 24h, 2d)').default(
    DEFAULTS.planMaxAge,
  );

export const backupDirOption = (help: string): Option =>
  new Option('--backup-dir <dir>', help).default(DEFAULTS.backupDir);

export const labDirOption = (): Option => new Option('--dir <dir>', 'lab directory').default(DEFAULTS.labDir);

export const CHECK_HELP = `run only these checks: ${CHECK_IDS.join(', ')}`;

const num = (v: unknown, dflt: number): number => (typeof v === 'number' ? v : dflt);
const str = (v: unknown, dflt: string): string => (typeof v === 'string' ? v : dflt);

// Each command reads its own options, typed, defaults filled in (a caller without commander may leave them out).

/** What every fleet command (audit, fix, migrate) reads: parallelism, timeout, how many --history reports to keep. */
export interface FleetOptions {
  forks: number;
  timeout: number;
  historyKeep: number;
}

export function fleetOptions(o: Record<string, unknown>): FleetOptions {
  return {
    forks: num(o.forks, DEFAULTS.forks),
    timeout: num(o.timeout, DEFAULTS.timeout),
    historyKeep: num(o.historyKeep, DEFAULTS.historyKeep),
  };
}

export type AuditOptions = FleetOptions;
export const auditOptions = (o: Record<string, unknown>): AuditOptions => fleetOptions(o);

export interface FixOptions extends FleetOptions {
  backupDir: string;
  planMaxAge: string;
}

export function fixOptions(o: Record<string, unknown>): FixOptions {
  return {
    ...fleetOptions(o),
    backupDir: str(o.backupDir, DEFAULTS.backupDir),
    planMaxAge: str(o.planMaxAge, DEFAULTS.planMaxAge),
  };
}

export interface ServeOptions extends FleetOptions {
  interval: number;
  listen: string;
  logFormat: 'text' | 'json';
}

export function serveOptions(o: Record<string, unknown>): ServeOptions {
  return {
    ...fleetOptions(o),
    interval: num(o.interval, DEFAULTS.interval),
    listen: str(o.listen, DEFAULTS.listen),
    logFormat: str(o.logFormat, DEFAULTS.logFormat) === 'json' ? 'json' : 'text',
  };
}

export interface ExportOptions {
  timeout: number;
  planMaxAge: string;
}

export function exportOptions(o: Record<string, unknown>): ExportOptions {
  return { timeout: num(o.timeout, DEFAULTS.timeout), planMaxAge: str(o.planMaxAge, DEFAULTS.planMaxAge) };
}

export interface MigrateOptions extends FleetOptions {
  backupDir: string;
  source: Source;
}

export function migrateOptions(o: Record<string, unknown>): MigrateOptions {
  return {
    ...fleetOptions(o),
    backupDir: str(o.backupDir, DEFAULTS.backupDir),
    source: str(o.source, DEFAULTS.source) as Source,
  };
}

export interface LabOptions {
  dir: string;
  scenario: string;
  layout: string;
}

export function labOptions(o: Record<string, unknown>): LabOptions {
  return {
    dir: str(o.dir, DEFAULTS.labDir),
    scenario: str(o.scenario, DEFAULTS.scenario),
    layout: str(o.layout, DEFAULTS.layout),
  };
}

/** --pack, --waivers, --severity: every command that audits (docs/packs.md). */
export const addPackOptions = (cmd: Command): Command =>
  cmd
    .option(
      '--pack <file|dir|builtin:name>',
      'a check pack, a folder of them (*.yml in name order) or builtin:NAME; repeatable',
      collect,
      [],
    )
    .option('--waivers <file>', 'accepted failures, each with a reason and an optional expiry (smdoctor_waivers: 1)')
    .addOption(
      new Option(
        '--severity <level>',
        'only checks at or above LEVEL count toward the exit code (all are shown)',
      ).choices(SEVERITIES),
    );
