/** A host's OpenSSH configuration applied to its inventory settings: inventory variables win, as in Ansible. */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { InputError } from '../base/errors.ts';
import { checkSshNames } from './ssh-names.ts';
import { expandPath, interpretSsh, one, policyOf, type SshReading } from './ssh-options.ts';
import { HONOURED_OPTIONS, parseSshArgs } from '../transport/ssh-args.ts';
import { baselineOptions, resolveSsh, type SshOptionMap, type SshResolutions } from '../transport/ssh-config.ts';
import type { HostConfig, Inventory, Vars } from '../inventory/types.ts';
import type { SshRoute, SshTarget } from '../transport/types.ts';
import type { AccessOptions, ReachHost } from './types.ts';

/** Options that change nothing smdoctor does (logging, multiplexing, local conveniences). */
const HARMLESS = new Set([
  'host',
  'loglevel',
  'hashknownhosts',
  'visualhostkey',
  'updatehostkeys',
  'batchmode',
  'checkhostip',
  'escapechar',
  'requesttty',
  'controlmaster',
  'controlpath',
  'controlpersist',
  'addkeystoagent',
  'logverbose',
  'sessiontype',
  'stdinnull',
  'forkafterauthentication',
  'clearallforwardings',
  'enableescapecommandline',
]);
const MAX_HOPS = 16;

/** What a jump host inherits from the host it leads to: the known-hosts files and their checking. */
type Hop = Pick<SshTarget, 'knownHostsFile' | 'knownHostsAlso' | 'hostKeyChecking'>;

interface Ctx {
  configFile: string;
  env: NodeJS.ProcessEnv;
  home: string;
  /** Where ssh would run: relative IdentityFile and UserKnownHostsFile paths are opened from it. */
  cwd: string | undefined;
  warnings: string[];
  /** The run's `ssh -G` answers. */
  known: SshResolutions;
}

/** The config file that applies: -F in the args, ssh_config_file, --ssh-config, then ~/.ssh/config when it exists. */
function configFileOf(
  vars: Vars,
  inv: Inventory,
  given: AccessOptions,
  fromArgs: string | undefined,
  home: string,
): string | undefined {
  const base = dirname(resolve(inv.file));
  if (fromArgs) return expandPath(fromArgs, home, base);
  const v = vars.ssh_config_file;
  if (typeof v === 'string' && v) return expandPath(v, home, base);
  if (given.sshConfigFile) return expandPath(given.sshConfigFile, home, given.cwd);
  const dflt = join(home, '.ssh', 'config');
  return existsSync(dflt) ? dflt : undefined;
}

const differs = (m: SshOptionMap, base: SshOptionMap | null, k: string) =>
  !base || JSON.stringify(m.get(k)) !== JSON.stringify(base.get(k));

/** Splits "[ssh://][user@]host[:port]" (IPv6 in brackets). */
export function parseJumpSpec(spec: string): { user?: string; host: string; port?: number } {
  const m = /^(?:ssh:\/\/)?(?:([^@]+)@)?(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(spec.trim());
  if (!m) throw new InputError(`ProxyJump: cannot read jump host '${spec}' (expected [user@]host[:port])`);
  return {
    ...(m[1] ? { user: m[1] } : {}),
    host: m[2]!.replace(/^\[|\]$/g, ''),
    ...(m[3] ? { port: Number(m[3]) } : {}),
  };
}

/** Everything the connection needs from one resolution; the caller decides what the inventory overrides. */
function access(
  m: SshOptionMap,
  base: SshOptionMap | null,
  c: Ctx,
  who: { dest: string },
  depth: number,
  template: Hop,
): SshRoute & { host: string; port: number; user: string } {
  const r = interpretSsh(m, { home: c.home, cwd: c.cwd, dest: who.dest });
  checkSshNames(who.dest, r.host, r.user, c.configFile);
  for (const key of m.keys()) {
    if ((HONOURED_OPTIONS as readonly string[]).includes(key) || HARMLESS.has(key) || !differs(m, base, key)) continue;
    if (!base && ['identitiesonly', 'stricthostkeychecking', 'userknownhostsfile'].includes(key)) continue;
    c.warnings.push(`ssh configuration ${c.configFile} sets ${key}, which smdoctor does not support: ignored`);
  }
  return {
    host: r.host,
    port: r.port,
    user: r.user,
    configFile: c.configFile,
    identityFiles: r.identityFiles.filter((f) => existsSync(f)),
    identitiesOnly: r.identitiesOnly,
    ...(one(m, 'hostkeyalias') ? { hostKeyAlias: one(m, 'hostkeyalias')! } : {}),
    jumps: r.proxyJump ? resolveJumps(r.proxyJump, c, depth + 1, template) : [],
    ...(r.proxyCommand && !r.proxyJump ? { proxyCommand: r.proxyCommand } : {}),
    ...(r.connectTimeout !== undefined ? { connectTimeout: r.connectTimeout } : {}),
    ...(r.serverAliveInterval > 0 ? { serverAliveInterval: r.serverAliveInterval } : {}),
    warnings: c.warnings,
  };
}

/** The known-hosts files and checking the configuration sets, else those of `fallback`: every file is read, the first written. */
function hostKeys(m: SshOptionMap, base: SshOptionMap | null, r: SshReading, fallback: Hop): Hop {
  const [first, ...also] = r.knownHostsFiles;
  const files: Omit<Hop, 'hostKeyChecking'> =
    differs(m, base, 'userknownhostsfile') && first
      ? { knownHostsFile: first, ...(also.length ? { knownHostsAlso: also } : {}) }
      : {
          knownHostsFile: fallback.knownHostsFile,
          ...(fallback.knownHostsAlso ? { knownHostsAlso: fallback.knownHostsAlso } : {}),
        };
  const policy = differs(m, base, 'stricthostkeychecking') ? policyOf(one(m, 'stricthostkeychecking')) : undefined;
  return { ...files, hostKeyChecking: policy ?? fallback.hostKeyChecking };
}

/** "a,b,c": a is reached as its own configuration says (its own ProxyJump too), b through a, and so on. */
function resolveJumps(specs: string, c: Ctx, depth: number, template: Hop): SshTarget[] {
  if (depth > MAX_HOPS) throw new InputError(`ProxyJump in ${c.configFile}: more than ${MAX_HOPS} hops (a loop?)`);
  const chain: SshTarget[] = [];
  specs.split(',').forEach((spec, i) => {
    const j = parseJumpSpec(spec);
    const args = [
      ...(j.user ? ['-l', j.user] : []),
      ...(j.port ? ['-p', String(j.port)] : []),
      ...(i > 0 ? ['-o', 'ProxyJump=none'] : []),
    ];
    const m = resolveSsh({ dest: j.host, configFile: c.configFile, args, env: c.env }, c.known).options;
    const base = baselineOptions(c.env, c.known);
    const a = access(m, base, c, { dest: j.host }, depth, template);
    const { host, port, user, ...ssh } = a;
    const before = i === 0 ? ssh.jumps : [...chain];
    chain.length = 0;
    chain.push(...before);
    // never the target's key: the hop's own IdentityFile (or OpenSSH's defaults) and its own host-key settings
    chain.push({
      name: j.host,
      connection: 'ssh',
      address: host,
      port,
      user,
      become: false,
      ...hostKeys(m, base, interpretSsh(m, { home: c.home, cwd: c.cwd, dest: j.host }), template),
      ssh: { ...ssh, jumps: [...before] },
    });
  });
  return chain;
}

/** cfg with its ssh configuration applied, or cfg itself when no file and no ssh arguments apply. */
export function applySshAccess(
  cfg: HostConfig,
  vars: Vars,
  inv: Inventory,
  env: NodeJS.ProcessEnv,
  given: AccessOptions = {},
): ReachHost {
  const home = env.HOME || homedir();
  if (cfg.connection !== 'local') checkSshNames(cfg.name, cfg.address, cfg.user, inv.file);
  const parsed = (['ansible_ssh_common_args', 'ansible_ssh_extra_args'] as const).map((k) => {
    const v = vars[k];
    if (v === undefined || v === null || v === '') return { args: [], ignored: [] as string[], configFile: undefined };
    try {
      return parseSshArgs(String(v));
    } catch (err) {
      throw new InputError(`host '${cfg.name}': ${k}: ${(err as Error).message}`, { pos: { file: inv.file } });
    }
  });
  const args = parsed.flatMap((p) => p.args);
  const configFile = configFileOf(
    vars,
    inv,
    given,
    parsed
      .map((p) => p.configFile)
      .filter(Boolean)
      .pop(),
    home,
  );
  const warnings = parsed.flatMap((p, i) =>
    p.ignored.map(
      (o) => `${i ? 'ansible_ssh_extra_args' : 'ansible_ssh_common_args'}: ${o} is not supported by smdoctor: ignored`,
    ),
  );
  if (!configFile && !args.length) return warnings.length ? { ...cfg, ssh: emptyAccess('/dev/null', warnings) } : cfg;
  const dest = 'ansible_host' in vars && vars.ansible_host ? String(vars.ansible_host) : cfg.name;
  const has = (k: string) => vars[k] !== undefined && vars[k] !== null && vars[k] !== '';
  const q = [
    ...(has('ansible_user') ? ['-l', cfg.user] : []),
    ...(has('ansible_port') ? ['-p', String(cfg.port)] : []),
    ...args,
  ];
  const known = given.routes?.resolutions ?? new Map();
  const c: Ctx = { configFile: configFile ?? '/dev/null', env, home, cwd: given.cwd, warnings, known };
  const r = resolveSsh({ dest, configFile: c.configFile, args: q, env }, known);
  if (r.via === 'parser')
    warnings.push(
      `no ssh binary found: ${c.configFile} is read by smdoctor's subset parser (Host and Match host/user blocks, no Include)`,
    );
  const base = baselineOptions(env, known);
  const { host, port, user, ...ssh } = access(r.options, base, c, { dest }, 0, cfg);
  const keys = hostKeys(r.options, base, interpretSsh(r.options, { home, cwd: given.cwd, dest }), cfg);
  return {
    ...cfg,
    address: host,
    port,
    user,
    ...(has('ssh_known_hosts_file')
      ? {}
      : {
          knownHostsFile: keys.knownHostsFile,
          ...(keys.knownHostsAlso ? { knownHostsAlso: keys.knownHostsAlso } : {}),
        }),
    ...(has('ssh_host_key_checking') ? {} : { hostKeyChecking: keys.hostKeyChecking }),
    ssh: { ...ssh, ...(given.jumpChannels ? { jumpChannels: given.jumpChannels } : {}) },
  };
}

function emptyAccess(configFile: string, warnings: string[]): SshRoute {
  return { configFile, identityFiles: [], identitiesOnly: false, jumps: [], warnings };
}
