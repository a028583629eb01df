/**
 * OpenSSH client configuration as OpenSSH resolves it: `ssh -G -F FILE` is the reference. Without an ssh
 * binary, a subset parser (the ssh-config package: Host and Match blocks, first value wins) stands in.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import SSHConfig from 'ssh-config';
import { InputError } from '../base/errors.ts';

/** Lowercase option name → its values, in order (IdentityFile and friends have several). */
export type SshOptionMap = Map<string, string[]>;

export interface SshQuery {
  /** What ssh would be given as destination: ansible_host, or the inventory name. */
  dest: string;
  configFile: string;
  /** Command-line arguments that win over the file (-l, -p, -J, -o K=V). */
  args: string[];
  env: NodeJS.ProcessEnv;
}

export interface SshResolution {
  options: SshOptionMap;
  /** 'parser' when there was no ssh binary and the subset parser was used. */
  via: 'ssh' | 'parser';
}

/** `ssh -G` answers by query, kept by their owner (a run, one serve reload) and dropped with it. */
export type SshResolutions = Map<string, SshResolution>;

/** Parses `ssh -G` output: one "key value" per line. */
export function parseSshG(text: string): SshOptionMap {
  const map: SshOptionMap = new Map();
  for (const line of text.split('\n')) {
    const m = /^(\S+)\s+(.*)$/.exec(line.trim());
    if (!m) continue;
    const key = m[1]!.toLowerCase();
    map.set(key, [...(map.get(key) ?? []), m[2]!]);
  }
  return map;
}

function runSshG(q: SshQuery, configFile: string): SshOptionMap | null {
  try {
    const out = execFileSync('ssh', ['-G', '-F', configFile, ...q.args, '--', q.dest], {
      env: q.env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 10_000,
    });
    return parseSshG(out);
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') return null;
    const why = (e.stderr ?? '').trim().split('\n')[0] || e.message;
    throw new InputError(`ssh configuration ${configFile} for ${q.dest}: ${why}`);
  }
}

/** The effective options of q.dest, kept in `known` (none given: asked again each time). */
export function resolveSsh(q: SshQuery, known: SshResolutions = new Map()): SshResolution {
  const key = JSON.stringify([q.dest, q.configFile, q.args, q.env.HOME, q.env.PATH]);
  let r = known.get(key);
  if (!r) {
    const viaSsh = runSshG(q, q.configFile);
    r = viaSsh ? { options: viaSsh, via: 'ssh' } : { options: subsetResolve(q), via: 'parser' };
    known.set(key, r);
  }
  return r;
}

/** OpenSSH's defaults with no configuration at all, for telling configured options from defaults. */
export function baselineOptions(env: NodeJS.ProcessEnv, known: SshResolutions = new Map()): SshOptionMap | null {
  const key = JSON.stringify(['<baseline>', env.HOME, env.PATH]);
  const hit = known.get(key);
  if (hit) return hit.options;
  const map = runSshG({ dest: 'smdoctor-baseline.invalid', configFile: '/dev/null', args: [], env }, '/dev/null');
  if (map) known.set(key, { options: map, via: 'ssh' });
  return map;
}

const FIRST_WINS_MULTI = new Set([
  'identityfile',
  'certificatefile',
  'localforward',
  'remoteforward',
  'dynamicforward',
  'sendenv',
]);

// OpenSSH's own list, in `ssh -G`'s order, when no IdentityFile is set
const DEFAULT_IDENTITIES = ['id_rsa', 'id_ecdsa', 'id_ecdsa_sk', 'id_ed25519', 'id_ed25519_sk', 'id_xmss', 'id_dsa'];

// keywords only Apple's ssh knows: OpenSSH elsewhere refuses the file unless IgnoreUnknown names them
const MACOS_ONLY = new Set(['usekeychain']);

/**
 * The documented subset, for machines without ssh: Host and Match host/user blocks, first value wins,
 * several IdentityFile; not Include, Match exec/canonical, nor tokens beyond %h %p %r %u %d %%.
 */
export function subsetResolve(q: SshQuery): SshOptionMap {
  const map: SshOptionMap = new Map();
  const set = (k: string, v: string) => {
    const key = k.toLowerCase();
    if (FIRST_WINS_MULTI.has(key)) {
      if (!map.get(key)?.includes(v)) map.set(key, [...(map.get(key) ?? []), v]);
    } else if (!map.has(key)) map.set(key, [v]);
  };
  // command-line options come first, so they win
  for (let i = 0; i < q.args.length; i += 2) {
    const flag = q.args[i]!;
    const v = q.args[i + 1]!;
    if (flag === '-o') {
      const eq = v.indexOf('=');
      set(v.slice(0, eq), v.slice(eq + 1));
    } else if (flag === '-l') set('user', v);
    else if (flag === '-p') set('port', v);
    else if (flag === '-J') set('proxyjump', v);
    else if (flag === '-i') set('identityfile', v);
  }
  const text = q.configFile === '/dev/null' ? '' : readConfig(q.configFile);
  refuseUnknown(text, q.configFile);
  refuseBadPorts(text, q.configFile);
  const computed = SSHConfig.parse(text).compute({
    Host: q.dest,
    ...(map.get('user') ? { User: map.get('user')![0]! } : {}),
  });
  for (const [k, v] of Object.entries(computed)) {
    // an array is several lines of a multi-valued option, or the several values of one line (UserKnownHostsFile a b)
    if (FIRST_WINS_MULTI.has(k.toLowerCase())) for (const one of Array.isArray(v) ? v : [v]) set(k, one);
    else set(k, Array.isArray(v) ? v.join(' ') : v);
  }
  // ssh reads "none" in any case as no proxy, and prints nothing for it
  for (const k of ['proxycommand', 'proxyjump']) if (map.get(k)?.[0]?.toLowerCase() === 'none') map.delete(k);
  const port = map.get('port')?.[0];
  if (port !== undefined) map.set('port', [String(servicePort(port) ?? port)]);
  const home = q.env.HOME ?? userInfo().homedir;
  set('hostname', q.dest);
  set('user', q.env.USER ?? userInfo().username);
  set('port', '22');
  if (!map.has('identityfile')) for (const f of DEFAULT_IDENTITIES) set('identityfile', `~/.ssh/${f}`);
  set('userknownhostsfile', `${home}/.ssh/known_hosts ${home}/.ssh/known_hosts2`);
  set('stricthostkeychecking', 'ask');
  set('identitiesonly', 'no');
  // as ssh: a batch session without its own keepalive gets one every 300 seconds
  if (map.get('batchmode')?.[0]?.toLowerCase() === 'yes') set('serveraliveinterval', '300');
  // ssh lowercases the name it connects to
  const host = map.get('hostname')![0]!.replaceAll('%h', q.dest).replaceAll('%%', '%').toLowerCase();
  map.set('hostname', [host]);
  return map;
}

/** A macOS-only keyword refuses the file, as OpenSSH on Linux does, unless an earlier IgnoreUnknown names it. */
function refuseUnknown(text: string, file: string): void {
  const ignored: RegExp[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    // ssh splits on space and tab only: a keyword glued to other characters (a no-break space) is unknown to it
    const word = /^[ \t\r]*([^ \t\r=#][^ \t\r=]*)/.exec(line)?.[1];
    if (word !== undefined && !/^[A-Za-z0-9]+$/.test(word))
      throw new InputError(`${file}: line ${i + 1}: Bad configuration option: ${JSON.stringify(word)}`, {
        pos: { file, line: i + 1 },
      });
    const m = /^[ \t]*(\w+)(?:[ \t]*=[ \t]*|[ \t]+)(.*)$/.exec(line);
    if (!m) return;
    const key = m[1]!.toLowerCase();
    if (key === 'ignoreunknown')
      for (const p of m[2]!.trim().split(/\s*,\s*/))
        ignored.push(
          new RegExp(
            `^${p
              .replace(/[.+^${}()|[\]\\]/g, '\\$&')
              .replace(/\*/g, '.*')
              .replace(/\?/g, '.')}$`,
            'i',
          ),
        );
    if (MACOS_ONLY.has(key) && !ignored.some((re) => re.test(key)))
      throw new InputError(
        `${file}: line ${i + 1}: Bad configuration option: ${key} (an option of macOS's ssh only; OpenSSH refuses the file): remove it, or add "IgnoreUnknown ${m[1]}" above it`,
        { pos: { file, line: i + 1 } },
      );
  });
}

/** A Port ssh cannot read (not 1-65535, nor a service name) refuses the file, as ssh refuses it. */
function refuseBadPorts(text: string, file: string): void {
  text.split(/\r?\n/).forEach((line, i) => {
    const m = /^[ \t]*port(?:[ \t]*=[ \t]*|[ \t]+)([^ \t\r]*)/i.exec(line);
    if (m && servicePort(m[1]!.replace(/^"(.*)"$/, '$1')) === null)
      throw new InputError(`${file}: line ${i + 1}: Bad port ${JSON.stringify(m[1])}`, { pos: { file, line: i + 1 } });
  });
}

/** A port as ssh reads it: a decimal number 1-65535 or a tcp service name of /etc/services; null when neither. */
function servicePort(v: string): number | null {
  if (/^\d+$/.test(v)) {
    const n = Number(v);
    return n >= 1 && n <= 65535 ? n : null;
  }
  if (!/^[A-Za-z][\w.-]*$/.test(v)) return null;
  let services = '';
  try {
    services = readFileSync('/etc/services', 'utf8');
  } catch {
    return null;
  }
  for (const line of services.split('\n')) {
    const [entry] = line.split('#');
    const f = entry!.trim().split(/\s+/);
    const m = /^(\d+)\/tcp$/.exec(f[1] ?? '');
    if (m && (f[0] === v || f.slice(2).includes(v))) return Number(m[1]);
  }
  return null;
}

function readConfig(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (cause) {
    throw new InputError(
      `ssh configuration ${file} cannot be read (${(cause as NodeJS.ErrnoException).code ?? 'error'})`,
      { cause },
    );
  }
}
