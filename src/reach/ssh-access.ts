/** A host's OpenSSH configuration applied to its inventory settings: inventory variables win, as in Ansible. */
import { existsSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { InputError } from '../errors.ts';
import { checkSshNames, shellQuote } from './ssh-names.ts';
import { HONOURED_OPTIONS, parseSshArgs } from '../transport/ssh-args.ts';
import { baselineOptions, resolveSsh, type SshOptionMap } from '../transport/ssh-config.ts';
import type { HostConfig, Inventory, Vars } from '../inventory/types.ts';
import type { HostKeyPolicy, SshRoute, SshTarget } from '../transport/types.ts';
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

/** What a jump host inherits from the host it leads to: the known-hosts file and its checking. */
type Hop = Pick<SshTarget, 'knownHostsFile' | 'hostKeyChecking'>;

interface Ctx {
  configFile: string;
  env: NodeJS.ProcessEnv;
  home: string;
  warnings: string[];
}

function expandPath(p: string, home: string, base: string): string {
  if (p === '~' || p.startsWith('~/')) return join(home, p.slice(1));
  return isAbsolute(p) ? p : resolve(base, p);
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
  if (given.sshConfigFile) return expandPath(given.sshConfigFile, home, process.cwd());
  const dflt = join(home, '.ssh', 'config');
  return existsSync(dflt) ? dflt : undefined;
}

const one = (m: SshOptionMap, k: string): string | undefined => m.get(k)?.[0];
const differs = (m: SshOptionMap, base: SshOptionMap | null, k: string) =>
  !base || JSON.stringify(m.get(k)) !== JSON.stringify(base.get(k));

/** %-tokens substituted; in a command for the shell (ProxyCommand) each value is quoted, so none can run as code. */
function tokens(
  s: string,
  o: { host: string; port: number; user: string; dest: string; home: string },
  shell = false,
): string {
  return s.replace(/%([%hprnud])/g, (_m, c: string) => {
    if (c === '%') return '%';
    const v = { h: o.host, p: String(o.port), r: o.user, n: o.dest, u: userInfo().username, d: o.home }[c]!;
    return shell ? shellQuote(v) : v;
  });
}

function policyOf(v: string | undefined): HostKeyPolicy | undefined {
  if (v === 'accept-new') return 'accept-new';
  if (v === 'no' || v === 'off') return 'off';
  if (v === 'yes' || v === 'ask') return 'strict';
  return undefined;
}

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
  const host = one(m, 'hostname') ?? who.dest;
  const port = Number(one(m, 'port') ?? 22);
  const user = one(m, 'user') ?? userInfo().username;
  const t = { host, port, user, dest: who.dest, home: c.home };
  checkSshNames(who.dest, host, user, c.configFile);
  const identityFiles = (m.get('identityfile') ?? [])
    .map((f) => expandPath(tokens(f, t), c.home, '/'))
    .filter((f) => existsSync(f));
  const jumpSpec = one(m, 'proxyjump');
  const proxy = one(m, 'proxycommand');
  const ct = one(m, 'connecttimeout');
  const sa = Number(one(m, 'serveraliveinterval') ?? 0);
  for (const key of m.keys()) {
    if ((HONOURED_OPTIONS as readonly string[]).includes(key) || HARMLESS.has(key) || !differs(m, base, key)) continue;
    if (!base && ['identitiesonly', 'stricthostkeychecking', 'userknownhostsfile'].includes(key)) continue;
    c.warnings.push(`ssh configuration ${c.configFile} sets ${key}, which smdoctor does not support: ignored`);
  }
  return {
    host,
    port,
    user,
    configFile: c.configFile,
    identityFiles,
    identitiesOnly: one(m, 'identitiesonly') === 'yes',
    ...(one(m, 'hostkeyalias') ? { hostKeyAlias: one(m, 'hostkeyalias')! } : {}),
    jumps: jumpSpec && jumpSpec !== 'none' ? resolveJumps(jumpSpec, c, depth + 1, template) : [],
    ...(proxy && proxy !== 'none' && !(jumpSpec && jumpSpec !== 'none')
      ? { proxyCommand: tokens(proxy, t, true) }
      : {}),
    ...(ct && ct !== 'none' ? { connectTimeout: Number(ct) } : {}),
    ...(sa > 0 ? { serverAliveInterval: sa } : {}),
    warnings: c.warnings,
  };
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
    const m = resolveSsh({ dest: j.host, configFile: c.configFile, args, env: c.env }).options;
    const a = access(m, baselineOptions(c.env), c, { dest: j.host }, depth, template);
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
      knownHostsFile:
        differs(m, baselineOptions(c.env), 'userknownhostsfile') && one(m, 'userknownhostsfile')
          ? expandPath(one(m, 'userknownhostsfile')!.split(/\s+/)[0]!, c.home, '/')
          : template.knownHostsFile,
      hostKeyChecking: differs(m, baselineOptions(c.env), 'stricthostkeychecking')
        ? (policyOf(one(m, 'stricthostkeychecking')) ?? template.hostKeyChecking)
        : template.hostKeyChecking,
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
  const c: Ctx = { configFile: configFile ?? '/dev/null', env, home, warnings };
  const r = resolveSsh({ dest, configFile: c.configFile, args: q, env });
  if (r.via === 'parser')
    warnings.push(
      `no ssh binary found: ${c.configFile} is read by smdoctor's subset parser (Host and Match host/user blocks, no Include)`,
    );
  const base = baselineOptions(env);
  const { host, port, user, ...ssh } = access(r.options, base, c, { dest }, 0, cfg);
  const m = r.options;
  return {
    ...cfg,
    address: host,
    port,
    user,
    knownHostsFile:
      has('ssh_known_hosts_file') || !differs(m, base, 'userknownhostsfile') || !one(m, 'userknownhostsfile')
        ? cfg.knownHostsFile
        : expandPath(one(m, 'userknownhostsfile')!.split(/\s+/)[0]!, home, '/'),
    hostKeyChecking:
      has('ssh_host_key_checking') || !differs(m, base, 'stricthostkeychecking')
        ? cfg.hostKeyChecking
        : (policyOf(one(m, 'stricthostkeychecking')) ?? cfg.hostKeyChecking),
    ssh: { ...ssh, ...(given.jumpChannels ? { jumpChannels: given.jumpChannels } : {}) },
  };
}

function emptyAccess(configFile: string, warnings: string[]): SshRoute {
  return { configFile, identityFiles: [], identitiesOnly: false, jumps: [], warnings };
}
