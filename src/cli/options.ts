/**
 * Every command's options in one place: the one table of flag declarations (FLAGS, with the defaults of
 * base/defaults.ts, which the help shows), and typed readers that fill in a default where a command is called
 * without commander (tests, library). Each command's `…Args` (args.ts) is built from these.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Source } from '../migrate/explain-run.ts';
import { CHECK_IDS, SEVERITIES } from '../model/index.ts';
import { FORMATS } from '../report/formats.ts';
import { parseShard, type Shard } from '../inventory/shard.ts';
import { DEFAULTS } from '../base/defaults.ts';

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

/** serve's `--interval`: whole or decimal seconds from 0.1 (a benchmark runs many cycles in minutes). */
export const MIN_INTERVAL = 0.1;
export function intervalSeconds(name: string) {
  return (v: string): number => {
    // digits and one point only: no exponent, hex, sign or Infinity
    const n = /^\d+(\.\d+)?$/.test(v) ? Number(v) : NaN;
    if (!(n >= MIN_INTERVAL))
      throw new InvalidArgumentError(`${name} must be a number of seconds, at least ${MIN_INTERVAL}`);
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

// parsers made once: one flag, one parser, whichever command declares it
const FORKS = positiveInt('--forks');
const JUMP_CHANNELS = positiveInt('--jump-channels');
const TIMEOUT = seconds('--timeout');
const HISTORY_KEEP = positiveInt('--history-keep');
const VERBOSE = (_v: string, prev: number) => prev + 1;

/**
 * Every flag more than one command takes, declared once: name, argument, parser, default and help. A flag whose help
 * names the command's own use of it takes that help (its name, argument and default are still this table's).
 */
export const FLAGS = {
  inventory: () =>
    new Option(
      '-i, --inventory <source>',
      'Ansible inventory: a YAML/INI file, a directory, a script or JSON; repeatable (default: $SMDOCTOR_INVENTORY, else .lab/inventory.yml while the lab is up)',
    )
      .argParser(collect)
      .default([]),
  playbookDir: () =>
    new Option(
      '--playbook-dir <dir>',
      "read group_vars/ and host_vars/ beside a playbook in DIR too, as Ansible does (default: Ansible's playbook_dir, else the working directory)",
    ),
  vaultPasswordFile: () =>
    new Option(
      '--vault-password-file <file>',
      'vault password from FILE, or from what FILE prints when executable; repeatable',
    )
      .argParser(collect)
      .default([]),
  vaultId: () =>
    new Option('--vault-id <[label@]source>', "a vault password: a file, an executable, or 'prompt'; repeatable")
      .argParser(collect)
      .default([]),
  askVaultPass: () => new Option('--ask-vault-pass', 'ask for the vault password on the terminal'),
  limit: () =>
    new Option('--limit <pattern>', 'hosts or groups: names, *, a:b (union), a:&b (intersection), a:!b (exclusion)'),
  format: (choices: readonly string[] = FORMATS) =>
    new Option('--format <format>', 'output format (default: text on a terminal, else json)').choices(choices),
  output: () => new Option('-o, --output <file>', 'write the report to FILE instead of standard output'),
  forks: () => new Option('--forks <n>', 'hosts gathered in parallel').argParser(FORKS).default(DEFAULTS.forks),
  sshConfig: () =>
    new Option('--ssh-config <file>', 'OpenSSH client configuration (default: ~/.ssh/config when it exists)'),
  jumpChannels: () =>
    new Option('--jump-channels <n>', 'channels open at once on each jump host; more wait their turn')
      .argParser(JUMP_CHANNELS)
      .default(DEFAULTS.jumpChannels),
  timeout: () =>
    new Option('--timeout <seconds>', 'timeout of each remote command').argParser(TIMEOUT).default(DEFAULTS.timeout),
  verbose: () =>
    new Option('-v, --verbose', 'more detail (repeat for more)').argParser(VERBOSE).default(DEFAULTS.verbose),
  history: (help: string) => new Option('--history <dir>', help),
  historyKeep: () =>
    new Option('--history-keep <n>', 'how many reports of each kind --history keeps')
      .argParser(HISTORY_KEEP)
      .default(DEFAULTS.historyKeep),
  pack: () =>
    new Option(
      '--pack <file|dir|builtin:name>',
      'a check pack, a folder of them (*.yml in name order) or builtin:NAME; repeatable',
    )
      .argParser(collect)
      .default([]),
  waivers: () =>
    new Option(
      '--waivers <file>',
      'accepted failures, each with a reason and an optional expiry (smdoctor_waivers: 1)',
    ),
  severity: () =>
    new Option(
      '--severity <level>',
      'only checks at or above LEVEL count toward the exit code (all are shown)',
    ).choices(SEVERITIES),
  check: () => new Option('--check <ids>', `run only these checks: ${CHECK_IDS.join(', ')}`),
  shard: (help: string) => new Option('--shard <k/n>', help).argParser(shardArg),
  yes: (help: string) => new Option('-y, --yes', help),
  backupDir: (help: string) => new Option('--backup-dir <dir>', help).default(DEFAULTS.backupDir),
  breakLease: (help: string) => new Option('--break-lease', help),
  plan: (help: string) => new Option('--plan <file>', help),
  approve: () =>
    new Option('--approve <digest>', "with --plan: refuse unless the plan's digest (printed by audit) is this one"),
  planMaxAge: () =>
    new Option('--plan-max-age <duration>', 'refuse a plan older than this (e.g. 90m, 24h, 2d)').default(
      DEFAULTS.planMaxAge,
    ),
  allowYellow: (help: string) => new Option('--allow-yellow', help),
  source: () =>
    new Option(
      '--source <where>',
      "local: smdoctor's own analysis; service: the cluster's migration endpoints; compare: both, every difference (exit 3)",
    )
      .choices(['local', 'service', 'compare'])
      .default(DEFAULTS.source),
  apply: () =>
    new Option(
      '--apply',
      'rewrite the stored queries (optimistic concurrency: a document changed meanwhile is left alone)',
    ),
  labDir: () => new Option('--dir <dir>', 'lab directory').default(DEFAULTS.labDir),
} as const;

const addAll = (cmd: Command, options: Option[]): Command => options.reduce((c, o) => c.addOption(o), cmd);

/** Options every fleet command takes: inventory, vault, selection, output, reach. */
export const addCommon = (cmd: Command): Command =>
  addAll(addInventory(cmd), [
    FLAGS.limit(),
    FLAGS.format(),
    FLAGS.output(),
    FLAGS.forks(),
    FLAGS.sshConfig(),
    FLAGS.jumpChannels(),
    FLAGS.timeout(),
    FLAGS.verbose(),
  ]);

/** -i and the vault options. */
export const addInventory = (cmd: Command): Command =>
  addAll(cmd, [
    FLAGS.inventory(),
    FLAGS.playbookDir(),
    FLAGS.vaultPasswordFile(),
    FLAGS.vaultId(),
    FLAGS.askVaultPass(),
  ]);

/** --history DIR and --history-keep N: audit, fix and migrate keep their JSON reports. */
export const addHistory = (cmd: Command): Command =>
  addAll(cmd, [
    FLAGS.history('keep this JSON report in DIR too (time-stamped); the HTML report shows the last runs'),
    FLAGS.historyKeep(),
  ]);

/** --pack, --waivers, --severity: every command that audits (docs/packs.md). */
export const addPackOptions = (cmd: Command): Command => addAll(cmd, [FLAGS.pack(), FLAGS.waivers(), FLAGS.severity()]);

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
  /** Every n-th cycle reads every host in full. */
  fullEvery: number;
  listen: string;
  logFormat: 'text' | 'json';
}

export function serveOptions(o: Record<string, unknown>): ServeOptions {
  return {
    ...fleetOptions(o),
    interval: num(o.interval, DEFAULTS.interval),
    fullEvery: num(o.fullEvery, DEFAULTS.fullEvery),
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
