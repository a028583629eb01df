/** Reads an inventory file as Ansible's plugin chain would: yaml (by extension or content), else ini. */
import { statSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { InputError, posText, UsageError } from '../base/errors.ts';
import { InventoryBuilder, type Problem } from './builder.ts';
import { readIni } from './ini.ts';
import type { Inventory, InventoryWarning } from './types.ts';
import { isSecretValue, rememberSecrets } from '../text/index.ts';
import { resolveHostVars, type Origins } from './hostvars.ts';
import { mergeInto, readSourceFile, sourceFiles } from './sources.ts';
import type { VaultKeys, VaultSecret } from './vault.ts';
import type { AnsibleSettings } from './ansiblecfg.ts';
import { rawVars } from './lazy.ts';
import { needsWork } from './template.ts';
import { baseDirOf, VarsDirs } from './varsdirs.ts';
import { YamlInventoryReader } from './yaml.ts';

function fail(errors: Problem[]): never {
  const lines = errors.map((e) => `${posText(e.pos)}: ${e.message}`);
  const first = errors[0];
  const msg =
    errors.length === 1 ? first.message : `${errors.length} problems in the inventory:\n  ${lines.join('\n  ')}`;
  throw new InputError(msg, { pos: first.pos });
}

function finish(b: InventoryBuilder): Inventory {
  if (b.errors.length) fail(b.errors);
  const inv = b.build();
  // a secret written in the inventory is blanked wherever it shows up later (a remote error, a URL)
  for (const h of inv.hosts.values()) rememberSecrets(h.vars);
  if (b.warnings.length) inv.warnings = b.warnings;
  return inv;
}

/** Parses inventory text into a builder, as Ansible's yaml then ini plugins would; problems are raised. */
export function parseBuilder(text: string, file: string): InventoryBuilder {
  const ext = extname(file).toLowerCase();
  const yamlByName = ext === '' || ext === '.yml' || ext === '.yaml' || ext === '.json';
  if (yamlByName) {
    const y = new InventoryBuilder(file);
    const isMapping = new YamlInventoryReader(y).read(text);
    if (isMapping && !y.errors.length) return y;
    // Ansible lets the ini plugin try whatever the yaml plugin refused
    const i = new InventoryBuilder(file);
    readIni(i, text);
    if (!i.errors.length) return i;
    const looksYaml = isMapping || ext !== '' || /^\s*(---|\w[\w.-]*:\s*$)/m.test(text);
    fail(looksYaml && y.errors.length ? y.errors : i.errors);
  }
  const i = new InventoryBuilder(file);
  readIni(i, text);
  if (i.errors.length) fail(i.errors);
  return i;
}

/** Parses inventory text; `file` names it in messages and decides YAML by extension as Ansible does. */
export function parseInventory(text: string, file: string): Inventory {
  return finish(parseBuilder(text, file));
}

export interface LoadOptions {
  secrets?: VaultSecret[];
  env?: NodeJS.ProcessEnv;
  /** Ansible's settings that change how variables are read (vault_id_match, hash_behaviour, precedence). */
  settings?: Partial<Pick<AnsibleSettings, 'vaultIdMatch' | 'hashMerge' | 'precedence'>>;
  /** The playbook directory: its group_vars/ and host_vars/ are read after the inventory's, as Ansible reads them. */
  playbookDir?: string;
}

/** Reads one or more sources (files, directories, scripts, JSON) with their group_vars/ and host_vars/, merged as Ansible merges them. */
export async function loadInventory(source: string | string[], o: LoadOptions = {}): Promise<Inventory> {
  const sources = Array.isArray(source) ? source : [source];
  const vault: VaultKeys = { secrets: o.secrets ?? [], idMatch: o.settings?.vaultIdMatch ?? false };
  const hashMerge = o.settings?.hashMerge ?? false;
  const env = o.env ?? {};
  const origins: Origins = new Map();
  const files = sources.map((s) => ({ source: s, files: sourceFiles(s) }));
  const first = files.flatMap((f) => f.files)[0] ?? sources[0];
  const all = new InventoryBuilder(first);
  const warnings: InventoryWarning[] = [];
  for (const f of files) {
    for (const file of f.files) {
      const b = await readSourceFile(file, parseBuilder, vault, env);
      if (b.errors.length) fail(b.errors);
      warnings.push(...b.warnings);
      mergeInto(all, b, origins, hashMerge);
    }
  }
  if (all.errors.length) fail(all.errors);
  const inv = all.build();
  const basedirs = files.map((f) => baseDirOf(f.source, statSync(f.source).isDirectory()));
  const dirs = new VarsDirs(vault);
  const play = playDirs(o.playbookDir, warnings);
  resolveHostVars(inv, {
    builder: all,
    origins,
    basedirs,
    playdirs: play,
    dirs,
    env,
    vault,
    hashMerge,
    ...(o.settings?.precedence ? { precedence: o.settings.precedence } : {}),
  });
  // a secret written in the inventory is blanked wherever it shows up later (a remote error, a URL); one
  // worked out from a template or a vault is remembered when it is read
  for (const h of inv.hosts.values()) rememberSecrets(rawVars(h.vars));
  warnings.push(...dirs.warnings, ...plainPasswords(inv, origins));
  if (warnings.length) inv.warnings = warnings;
  return inv;
}

/** The playbook directory when it is one; else none, with a warning, as Ansible ignores it. */
function playDirs(dir: string | undefined, warnings: InventoryWarning[]): string[] {
  if (dir === undefined) return [];
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // missing: warned below
  }
  if (isDir) return [baseDirOf(dir, true)];
  warnings.push({
    code: 'playbook-dir',
    message: 'the playbook directory is not a directory: its group_vars/ and host_vars/ are not read',
    pos: { file: dir },
  });
  return [];
}

/** api_password written in plain text (not from a vault, not a template) is worth a warning, once per file. */
function plainPasswords(inv: Inventory, origins: Origins): InventoryWarning[] {
  const files = new Set<string>();
  for (const h of inv.hosts.values()) {
    const v = rawVars(h.vars).api_password;
    if (v === undefined || v === null || v === '' || isSecretValue(v) || needsWork(v)) continue;
    const file =
      origins.get(`h:${h.name}`)?.get('api_password') ??
      [...h.groups, 'all'].map((g) => origins.get(`g:${g}`)?.get('api_password')).find(Boolean) ??
      inv.file;
    files.add(file);
  }
  return [...files].map((file) => ({
    code: 'plain-password',
    message:
      'api_password is written in plain text: encrypt it with ansible-vault (encrypt_string), or use api_password_file',
    pos: { file },
  }));
}

/** -i FILE, else $SMDOCTOR_INVENTORY, both relative to `cwd`. */
export function resolveInventoryPath(opt: string | undefined, cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const file = opt || env.SMDOCTOR_INVENTORY;
  if (file) return resolve(cwd, file);
  throw new UsageError(
    'no inventory: pass -i FILE (an Ansible inventory, YAML or INI) or set SMDOCTOR_INVENTORY; `smdoctor lab up` prints one',
  );
}
