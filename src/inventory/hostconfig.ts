/** One host's settings from its merged variables, with the defaults of the README's table of inventory variables (OpenSSH's configuration not applied). */
import { homedir, userInfo } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { InputError } from '../base/errors.ts';
import { rememberSecret } from '../text/index.ts';
import type { HostConfig, Inventory, Vars } from './types.ts';
import type { HostKeyPolicy, Connection } from '../model/index.ts';
import { splitUrlCredentials } from './url-credentials.ts';

/** Ansible's boolean(): true/yes/on/1/y/t in any case, and the number 1. */
export function ansibleBool(v: unknown, what: string, host: string): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  const s = String(v).trim().toLowerCase();
  if (['true', 'yes', 'on', '1', 'y', 't', '1.0'].includes(s)) return true;
  if (['false', 'no', 'off', '0', 'n', 'f', '0.0', ''].includes(s)) return false;
  throw new InputError(`host '${host}': ${what} must be a boolean (true/false, yes/no), got ${JSON.stringify(v)}`);
}

function str(vars: Vars, key: string, host: string): string | undefined {
  const v = vars[key];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v === 'object') throw new InputError(`host '${host}': ${key} must be a string, got ${JSON.stringify(v)}`);
  return String(v);
}

function path(p: string | undefined, base: string, home: string): string | undefined {
  if (p === undefined) return undefined;
  if (p === '~' || p.startsWith('~/')) return join(home, p.slice(1));
  return isAbsolute(p) ? p : resolve(base, p);
}

export function hostConfig(inv: Inventory, name: string, env: NodeJS.ProcessEnv = {}): HostConfig {
  const h = inv.hosts.get(name);
  if (!h) throw new InputError(`no host '${name}' in ${inv.file}`);
  const v = h.vars;
  const base = dirname(resolve(inv.file));
  const home = env.HOME || homedir();
  const s = (k: string) => str(v, k, name);

  const address = 'ansible_host' in v ? s('ansible_host') : name;
  if (!address)
    throw new InputError(`host '${name}' has an empty ansible_host: set an address`, { pos: { file: inv.file } });
  const portRaw = v.ansible_port ?? 22;
  const port = Number(portRaw);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new InputError(`host '${name}': ansible_port must be a port number, got ${JSON.stringify(portRaw)}`, {
      pos: { file: inv.file },
    });
  // YAML reads a bare `off` as false; as Ansible's host_key_checking, false means off and true means strict
  const hkc = v.ssh_host_key_checking;
  const policy = hkc === false ? 'off' : hkc === true ? 'strict' : (s('ssh_host_key_checking') ?? 'strict');
  if (!['strict', 'accept-new', 'off'].includes(policy)) {
    throw new InputError(
      `host '${name}': ssh_host_key_checking must be strict, accept-new or off (or a boolean: false is off, true is strict), got '${policy}'`,
      { pos: { file: inv.file } },
    );
  }
  const engine = s('engine') ?? 'opensearch';
  const connection = connectionOf(s('ansible_connection'), name, inv.file);
  serviceWord(engine, name, inv.file);
  const api = splitUrlCredentials(s('api_url') ?? `https://${hostForUrl(address)}:9200`);
  rememberSecret(api.password);
  const cfg: HostConfig = {
    name,
    connection,
    address,
    port,
    user: s('ansible_user') ?? userInfo().username,
    privateKeyFile: path(s('ansible_ssh_private_key_file') ?? s('ansible_private_key_file'), base, home),
    become: ansibleBool(v.ansible_become, 'ansible_become', name),
    knownHostsFile: path(s('ssh_known_hosts_file'), base, home) ?? join(home, '.ssh', 'known_hosts'),
    hostKeyChecking: policy as HostKeyPolicy,
    engine,
    searchHome: s('search_home') ?? `/app/${engine}`,
    webHome: s('web_home') ?? `/app/${engine}-dashboards`,
    ...(s('search_home') !== undefined ? { searchHomeGiven: true } : {}),
    ...(s('web_home') !== undefined ? { webHomeGiven: true } : {}),
    ...folders(s, name, inv.file),
    engineUser: s('engine_user') ?? engine,
    restartCommand: s('restart_command') ?? 'systemctl restart {service}',
    procRoot: s('proc_root') ?? '/proc',
    enginePidFile: s('engine_pid_file') ?? `/var/run/${engine}/${engine}.pid`,
    apiUrl: api.url,
    ...(api.username ? { apiUrlUsername: api.username } : {}),
    ...(api.password ? { apiUrlPassword: api.password } : {}),
    apiUsername: s('api_username'),
    apiPasswordEnv: s('api_password_env') ?? 'SMDOCTOR_API_PASSWORD',
    apiPasswordFile: path(s('api_password_file'), base, home),
    ...(s('api_password') !== undefined ? { apiPassword: s('api_password') } : {}),
    apiCaFile: path(s('api_ca_file'), base, home),
    apiInsecure: ansibleBool(v.api_insecure, 'api_insecure', name),
    inDashboardsGroup: h.groups.includes('dashboards'),
    groups: h.groups,
  };
  const via = v.api_via_ssh;
  if (typeof via === 'string' && !['true', 'yes', 'false', 'no', 'on', 'off', '1', '0', ''].includes(via.toLowerCase()))
    cfg.apiViaSsh = via;
  else if (ansibleBool(via, 'api_via_ssh', name)) cfg.apiViaSsh = true;
  // OpenSSH's configuration (HostName, User, Port, keys, jump hosts) is applied where hosts are reached: reach/
  return cfg;
}

const FOLDER_VARS = { engine_home: 'engineHome', engine_config_dir: 'engineConfigDir', web_config_dir: 'webConfigDir' };

/** The layout's folders the inventory names: absolute and plain (no control character, no `.` or `..` part). */
function folders(
  s: (k: string) => string | undefined,
  host: string,
  file: string,
): Partial<Pick<HostConfig, 'engineHome' | 'engineConfigDir' | 'webConfigDir'>> {
  const out: Record<string, string> = {};
  for (const [key, field] of Object.entries(FOLDER_VARS)) {
    const value = s(key);
    if (value === undefined) continue;
    // eslint-disable-next-line no-control-regex -- a control character could split the batched command's lines
    const bad = /[\u0000-\u001f\u007f]/u.test(value);
    if (!value.startsWith('/') || bad || `/${value}/`.split('/').some((p) => p === '.' || p === '..'))
      throw new InputError(
        `host '${host}': ${key} must be an absolute path without control characters or . and .. parts, got ${JSON.stringify(value)}`,
        { pos: { file } },
      );
    out[field] = value.length > 1 ? value.replace(/\/+$/, '') : value;
  }
  return out;
}

/**
 * Ansible's connection plugins smdoctor can stand in for: the SSH ones (smdoctor speaks SSH itself, as paramiko does)
 * and local. Anything else (winrm, docker, a network plugin) reaches hosts in a way smdoctor does not.
 */
const CONNECTIONS: Readonly<Record<string, Connection>> = {
  ssh: 'ssh',
  smart: 'ssh',
  paramiko: 'ssh',
  paramiko_ssh: 'ssh',
  'ansible.builtin.ssh': 'ssh',
  'ansible.builtin.paramiko_ssh': 'ssh',
  local: 'local',
  'ansible.builtin.local': 'local',
};

/**
 * Whether smdoctor may reach the host: no when its ansible_connection, worked out as hostConfig works it out, is a
 * plugin it does not use (winrm, network_cli, docker…), which reaching refuses. One it cannot work out throws.
 */
export function reachable(vars: Vars): boolean {
  const v = vars.ansible_connection;
  // a mapping or a list is refused where the host is reached: it is no plugin's name
  if (v === undefined || v === null || v === '' || typeof v === 'object') return true;
  return Object.hasOwn(CONNECTIONS, String(v));
}

function connectionOf(value: string | undefined, host: string, file: string): Connection {
  if (value === undefined) return 'ssh';
  const connection = Object.hasOwn(CONNECTIONS, value) ? CONNECTIONS[value] : undefined;
  if (connection) return connection;
  const spellings = (c: Connection) => Object.keys(CONNECTIONS).filter((k) => CONNECTIONS[k] === c);
  throw new InputError(
    `host '${host}': ansible_connection '${value}' is not supported: smdoctor connects with ssh (${spellings('ssh').join(', ')}) or local (${spellings('local').join(', ')})`,
    { pos: { file } },
  );
}

/**
 * `engine` names the services that fill restart_command's `{service}` (and paths): only a plain word, which means
 * the same inside double quotes, single quotes or none, and cannot be read as an option.
 */
function serviceWord(engine: string, host: string, file: string): void {
  if (/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(engine)) return;
  throw new InputError(
    `host '${host}': engine ${JSON.stringify(engine)} cannot be put into restart_command's {service}: use letters, digits, '.', '_' and '-' (not first)`,
    { pos: { file } },
  );
}

/** IPv6 literals need brackets in a URL. */
export function hostForUrl(address: string): string {
  return address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
}
