/**
 * Every command's flags in one table (FLAGS, with the defaults of base/defaults.ts, which the help shows) and their
 * parsers. Each command lists the flags it takes, in help order, in args.ts.
 */
import { Option } from 'commander';
import type { Source } from '../migrate/explain-run.ts';
import { CHECK_IDS, SEVERITIES } from '../model/index.ts';
import { FORMATS, type Format } from '../report/formats.ts';
import { maybe, on, valued } from './flag.ts';
import {
  FORKS,
  FULL_EVERY,
  HISTORY_KEEP,
  INTERVAL,
  JUMP_CHANNELS,
  TIMEOUT,
  VERBOSE,
  collect,
  shardArg,
} from './parsers.ts';
import type { Shard } from '../inventory/shard.ts';
import { DEFAULTS } from '../base/defaults.ts';

const text = maybe<string>();
const list = valued<string[]>();
const num = valued<number>();
const str = valued<string>();

/**
 * Every flag of every command, declared once: its field, name, argument, parser, default and help. A flag whose help
 * names the command's own use of it takes that help (its field, name, argument and default are still this table's).
 */
export const FLAGS = {
  inventory: list('inventory', () =>
    new Option(
      '-i, --inventory <source>',
      'Ansible inventory: a YAML/INI file, a directory, a script or JSON; repeatable (default: $SMDOCTOR_INVENTORY, else .lab/inventory.yml while the lab is up)',
    )
      .argParser(collect)
      .default([]),
  ),
  playbookDir: text(
    'playbookDir',
    () =>
      new Option(
        '--playbook-dir <dir>',
        "read group_vars/ and host_vars/ beside a playbook in DIR too, as Ansible does (default: Ansible's playbook_dir, else the working directory)",
      ),
  ),
  vaultPasswordFile: list('vaultPasswordFile', () =>
    new Option(
      '--vault-password-file <file>',
      'vault password from FILE, or from what FILE prints when executable; repeatable',
    )
      .argParser(collect)
      .default([]),
  ),
  vaultId: list('vaultId', () =>
    new Option('--vault-id <[label@]source>', "a vault password: a file, an executable, or 'prompt'; repeatable")
      .argParser(collect)
      .default([]),
  ),
  askVaultPass: on('askVaultPass', () => new Option('--ask-vault-pass', 'ask for the vault password on the terminal')),
  limit: text(
    'limit',
    () =>
      new Option('--limit <pattern>', 'hosts or groups: names, *, a:b (union), a:&b (intersection), a:!b (exclusion)'),
  ),
  format: <V extends string = Format>(choices: readonly V[] = FORMATS as readonly string[] as readonly V[]) =>
    maybe<V>()('format', () =>
      new Option('--format <format>', 'output format (default: text on a terminal, else json)').choices(choices),
    ),
  output: text(
    'output',
    () => new Option('-o, --output <file>', 'write the report to FILE instead of standard output'),
  ),
  forks: num('forks', () =>
    new Option('--forks <n>', 'hosts gathered in parallel').argParser(FORKS).default(DEFAULTS.forks),
  ),
  sshConfig: text(
    'sshConfig',
    () => new Option('--ssh-config <file>', 'OpenSSH client configuration (default: ~/.ssh/config when it exists)'),
  ),
  jumpChannels: num('jumpChannels', () =>
    new Option('--jump-channels <n>', 'channels open at once on each jump host; more wait their turn')
      .argParser(JUMP_CHANNELS)
      .default(DEFAULTS.jumpChannels),
  ),
  timeout: num('timeout', () =>
    new Option('--timeout <seconds>', 'timeout of each remote command').argParser(TIMEOUT).default(DEFAULTS.timeout),
  ),
  verbose: num('verbose', () =>
    new Option('-v, --verbose', 'more detail (repeat for more)').argParser(VERBOSE).default(DEFAULTS.verbose),
  ),
  history: (help: string) => text('history', () => new Option('--history <dir>', help)),
  historyKeep: num('historyKeep', () =>
    new Option('--history-keep <n>', 'how many reports of each kind --history keeps')
      .argParser(HISTORY_KEEP)
      .default(DEFAULTS.historyKeep),
  ),
  pack: list('pack', () =>
    new Option(
      '--pack <file|dir|builtin:name>',
      'a check pack, a folder of them (*.yml in name order) or builtin:NAME; repeatable',
    )
      .argParser(collect)
      .default([]),
  ),
  waivers: text(
    'waivers',
    () =>
      new Option(
        '--waivers <file>',
        'accepted failures, each with a reason and an optional expiry (smdoctor_waivers: 1)',
      ),
  ),
  // the level is checked where the packs are loaded too: a caller without commander may give any text
  severity: text('severity', () =>
    new Option(
      '--severity <level>',
      'only checks at or above LEVEL count toward the exit code (all are shown)',
    ).choices(SEVERITIES),
  ),
  // the ids are checked when the run is set up
  check: text('check', () => new Option('--check <ids>', `run only these checks: ${CHECK_IDS.join(', ')}`)),
  shard: (help: string) => maybe<Shard>()('shard', () => new Option('--shard <k/n>', help).argParser(shardArg)),
  yes: (help: string) => on('yes', () => new Option('-y, --yes', help)),
  backupDir: (help: string) =>
    str('backupDir', () => new Option('--backup-dir <dir>', help).default(DEFAULTS.backupDir)),
  breakLease: (help: string) => on('breakLease', () => new Option('--break-lease', help)),
  plan: (help: string) => text('plan', () => new Option('--plan <file>', help)),
  approve: text(
    'approve',
    () =>
      new Option('--approve <digest>', "with --plan: refuse unless the plan's digest (printed by audit) is this one"),
  ),
  planMaxAge: str('planMaxAge', () =>
    new Option('--plan-max-age <duration>', 'refuse a plan older than this (e.g. 90m, 24h, 2d)').default(
      DEFAULTS.planMaxAge,
    ),
  ),
  allowYellow: (help: string) => on('allowYellow', () => new Option('--allow-yellow', help)),
  source: valued<Source>()('source', () =>
    new Option(
      '--source <where>',
      "local: smdoctor's own analysis; service: the cluster's migration endpoints; compare: both, every difference (exit 3)",
    )
      .choices(['local', 'service', 'compare'])
      .default(DEFAULTS.source),
  ),
  apply: on(
    'apply',
    () =>
      new Option(
        '--apply',
        'rewrite the stored queries (optimistic concurrency: a document changed meanwhile is left alone)',
      ),
  ),
  // migrate explain
  file: text('file', () => new Option('--file <file>', 'read the query from FILE')),
  mappings: text(
    'mappings',
    () => new Option('--mappings <file>', 'a saved GET _mapping or _mapping/field response: work offline'),
  ),
  macros: text('macros', () => new Option('--macros <file>', 'YAML or JSON list of macro definitions: work offline')),
  // export ansible
  outputDir: text(
    'outputDir',
    () => new Option('-o, --output-dir <dir>', 'the playbook directory to write (new or empty)'),
  ),
  // lab
  labDir: str('dir', () => new Option('--dir <dir>', 'lab directory').default(DEFAULTS.labDir)),
  scenario: str('scenario', () =>
    new Option('--scenario <name|file>', 'healthy, broken, one per check id, fleet, or a scenario YAML file').default(
      DEFAULTS.scenario,
    ),
  ),
  layout: valued<'inventory' | 'repo'>()('layout', () =>
    new Option(
      '--layout <layout>',
      'inventory: one YAML file; repo: an Ansible repository (group_vars, the API password in a vault file)',
    )
      .choices(['inventory', 'repo'])
      .default(DEFAULTS.layout),
  ),
  bastion: on(
    'bastion',
    () =>
      new Option(
        '--bastion',
        'put the nodes in a network namespace reachable only through a jump host (root; inventory with ssh_config ProxyJump and api_via_ssh)',
      ),
  ),
  // inventory
  list: on('list', () => new Option('--list', 'every host with its groups and merged variables, and the clusters')),
  graph: on('graph', () => new Option('--graph', 'the group tree')),
  host: text('host', () => new Option('--host <name>', "one host's merged variables")),
  // serve
  interval: num('interval', () =>
    new Option('--interval <seconds>', 'seconds between cycles (±10 % jitter)')
      .argParser(INTERVAL)
      .default(DEFAULTS.interval),
  ),
  fullEvery: num('fullEvery', () =>
    new Option(
      '--full-every <n>',
      'read every host in full every n cycles (in between, only hosts whose files changed are read)',
    )
      .argParser(FULL_EVERY)
      .default(DEFAULTS.fullEvery),
  ),
  listen: str('listen', () =>
    new Option(
      '--listen <host:port>',
      'where to serve; an address other than loopback needs --tls-cert, --tls-key and --auth-file',
    ).default(DEFAULTS.listen),
  ),
  tlsCert: text('tlsCert', () => new Option('--tls-cert <file>', 'serve HTTPS with this PEM certificate (chain)')),
  tlsKey: text('tlsKey', () => new Option('--tls-key <file>', 'the PEM private key of --tls-cert')),
  authFile: text(
    'authFile',
    () =>
      new Option(
        '--auth-file <file>',
        "who may read the endpoints: 'bearer sha256:HEX' or 'basic NAME scrypt:SALT:KEY' lines",
      ),
  ),
  /** --hash-secret, or --hash-secret USER. */
  hashSecret: maybe<string | true>()(
    'hashSecret',
    () =>
      new Option(
        '--hash-secret [user]',
        "print the --auth-file line for the secret on standard input (a token, or USER's password), then exit",
      ),
  ),
  logFormat: valued<'text' | 'json'>()('logFormat', () =>
    new Option('--log-format <format>', 'log lines on standard error')
      .choices(['text', 'json'])
      .default(DEFAULTS.logFormat),
  ),
} as const;
