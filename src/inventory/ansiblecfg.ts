/** The Ansible settings smdoctor honours, from the environment or the ansible.cfg Ansible would find. */
import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { InputError } from '../base/errors.ts';

export interface AnsibleSettings {
  /** vault_identity_list: `[label@]source` entries, tried before --vault-id. */
  vaultIdentityList: string[];
  /** vault_password_file, an absolute path (relative ones are taken from the file that set them). */
  vaultPasswordFile?: string;
  /** vault_id_match: a vault id in a payload must match a password's label. */
  vaultIdMatch: boolean;
  /** hash_behaviour: `merge` combines dictionaries recursively. */
  hashMerge: boolean;
  /** precedence: the order of the group variable sources. */
  precedence?: string[];
  /** playbook_dir: where group_vars/ and host_vars/ beside the playbook are read (absolute). */
  playbookDir?: string;
  /** The ansible.cfg read, if any. */
  file?: string;
}

/** ANSIBLE_CONFIG (a file or a directory), ./ansible.cfg unless the directory is world-writable, ~/.ansible.cfg, /etc/ansible/ansible.cfg. */
export function findAnsibleCfg(cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const home = env.HOME || homedir();
  const paths: string[] = [];
  const fromEnv = env.ANSIBLE_CONFIG;
  if (fromEnv !== undefined) {
    const p = expand(fromEnv, cwd, home);
    paths.push(isDir(p) ? join(p, 'ansible.cfg') : p);
  }
  // Ansible ignores ./ansible.cfg in a world-writable directory: anyone could have put it there
  if (!isDir(cwd) || (statSync(cwd).mode & 0o002) === 0) paths.push(join(cwd, 'ansible.cfg'));
  paths.push(join(home, '.ansible.cfg'), '/etc/ansible/ansible.cfg');
  return paths.find((p) => existsSync(p) && readable(p));
}

function readable(p: string): boolean {
  try {
    accessSync(p, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function expand(p: string, base: string, home: string): string {
  if (p === '~' || p.startsWith('~/')) return join(home, p.slice(1));
  return isAbsolute(p) ? p : resolve(base, p);
}

/** Python's configparser as Ansible sets it up: `key = value` or `key: value`, `#`/`;` comments, indented continuation lines. */
export function parseCfg(text: string, file: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  let section: Map<string, string> | undefined;
  let last: string | undefined;
  text.split(/\r?\n/).forEach((raw, i) => {
    if (/^\s*([#;].*)?$/.test(raw)) return;
    if (/^\s/.test(raw) && section && last !== undefined) {
      section.set(last, `${section.get(last)}\n${raw.trim()}`);
      return;
    }
    const head = /^\[([^\]]+)\]\s*$/.exec(raw.trim());
    if (head) {
      const name = head[1].trim();
      if (!out.has(name)) out.set(name, new Map());
      section = out.get(name);
      last = undefined;
      return;
    }
    const kv = /^([^=:]+?)\s*[=:]\s*(.*)$/.exec(raw.trim());
    if (!kv || !section)
      throw new InputError(kv ? 'a setting before any [section] header' : `expected key = value, got '${raw.trim()}'`, {
        pos: { file, line: i + 1 },
      });
    last = kv[1].toLowerCase();
    // inline comments start with ';' after whitespace (inline_comment_prefixes)
    section.set(last, kv[2].replace(/\s+;.*$/, ''));
  });
  return out;
}

const list = (v: string | undefined): string[] =>
  v === undefined
    ? []
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

function bool(v: string | undefined): boolean {
  return ['1', 'true', 'yes', 'on', 'y', 't'].includes((v ?? '').trim().toLowerCase());
}

/** The settings, each from its ANSIBLE_* variable first, else from the [defaults] section of the ansible.cfg found. */
export function ansibleSettings(cwd: string, env: NodeJS.ProcessEnv): AnsibleSettings {
  const file = findAnsibleCfg(cwd, env);
  const defaults = file ? (parseCfg(readFileSync(file, 'utf8'), file).get('defaults') ?? new Map()) : new Map();
  const home = env.HOME || homedir();
  const pick = (envName: string, key: string): { value?: string; base: string } =>
    env[envName] !== undefined
      ? { value: env[envName], base: cwd }
      : { value: defaults.get(key), base: file ? dirname(file) : cwd };
  const pw = pick('ANSIBLE_VAULT_PASSWORD_FILE', 'vault_password_file');
  const play = pick('ANSIBLE_PLAYBOOK_DIR', 'playbook_dir');
  const precedence = list(pick('ANSIBLE_PRECEDENCE', 'precedence').value);
  const hash = (pick('ANSIBLE_HASH_BEHAVIOUR', 'hash_behaviour').value ?? 'replace').trim();
  if (hash !== 'replace' && hash !== 'merge')
    throw new InputError(`hash_behaviour must be replace or merge, got '${hash}'`, file ? { pos: { file } } : {});
  return {
    vaultIdentityList: list(pick('ANSIBLE_VAULT_IDENTITY_LIST', 'vault_identity_list').value),
    ...(pw.value ? { vaultPasswordFile: expand(pw.value.trim(), pw.base, home) } : {}),
    vaultIdMatch: bool(pick('ANSIBLE_VAULT_ID_MATCH', 'vault_id_match').value),
    hashMerge: hash === 'merge',
    ...(precedence.length ? { precedence } : {}),
    ...(play.value?.trim() ? { playbookDir: expand(play.value.trim(), play.base, home) } : {}),
    ...(file ? { file } : {}),
  };
}
