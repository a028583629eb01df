/** The -i sources as Ansible reads them: files, directories (in its order, skipping what it skips), scripts and JSON. */
import { accessSync, constants, openSync, readSync, closeSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { InputError } from '../base/errors.ts';
import type { InventoryBuilder } from './builder.ts';
import { combineValue } from './combine.ts';
import { noteOrigin, type Origins } from './hostvars.ts';
import { readScript, readScriptData, isScriptShape } from './script.ts';
import { parsePyJson } from './pyfloat.ts';
import { InventoryBuilder as Builder } from './builder.ts';
import { decryptVault, fromAnsibleJson, isVaultText, type VaultKeys } from './vault.ts';

// hidden files, vars directories, and the extensions Ansible ignores in an inventory directory by default
const IGNORED =
  /^\.|^host_vars$|^group_vars$|^vars_plugins$|(\.pyc|\.pyo|\.swp|\.bak|~|\.rpm|\.md|\.txt|\.rst|\.orig|\.ini|\.cfg|\.retry)$/;

/** Every file a source stands for, in the order Ansible parses them. */
export function sourceFiles(path: string): string[] {
  let st;
  try {
    st = statSync(path);
  } catch (e) {
    throw new InputError(`cannot read inventory: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, {
      pos: { file: path },
      cause: e,
    });
  }
  if (!st.isDirectory()) return [path];
  const out: string[] = [];
  for (const name of readdirSync(path).sort()) if (!IGNORED.test(name)) out.push(...sourceFiles(join(path, name)));
  return out;
}

function hasShebang(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(2);
    return readSync(fd, buf, 0, 2, 0) === 2 && buf.toString() === '#!';
  } finally {
    closeSync(fd);
  }
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A script is what starts with #!, or an executable file whose name does not say it is data. */
export function isScript(file: string): boolean {
  if (hasShebang(file)) return true;
  return executable(file) && !['.yml', '.yaml', '.json', '.ini', '.cfg', '.toml'].includes(extname(file).toLowerCase());
}

export type ParseText = (text: string, file: string) => InventoryBuilder;

/** One file of a source, parsed into its own builder (errors not yet raised). */
export async function readSourceFile(
  file: string,
  parse: ParseText,
  vault: VaultKeys,
  env: NodeJS.ProcessEnv,
): Promise<InventoryBuilder> {
  if (isScript(file)) return readScript(file, env);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read inventory: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, {
      pos: { file },
      cause: e,
    });
  }
  if (isVaultText(text)) text = decryptVault(text, vault.secrets, { file, line: 1 }, vault.idMatch);
  const data = jsonOf(text);
  if (data !== undefined && extname(file).toLowerCase() === '.json' && isScriptShape(data)) {
    const b = new Builder(file);
    readScriptData(b, fromAnsibleJson(data, file));
    return b;
  }
  const b = parse(text, file);
  // Ansible's loader reads JSON with its own decoder: {"__ansible_vault": ...} is a vault value
  if (data !== undefined) decodeVars(b);
  return b;
}

/** The text as JSON when it is JSON (Ansible tries JSON before YAML), else undefined. */
function jsonOf(text: string): unknown {
  if (!/^\s*[{[]/.test(text)) return undefined;
  try {
    return parsePyJson(text);
  } catch {
    return undefined;
  }
}

function decodeVars(b: InventoryBuilder): void {
  for (const g of b.groups.values()) g.vars = fromAnsibleJson(g.vars, b.file) as typeof g.vars;
  for (const [h, v] of b.hostVars) b.hostVars.set(h, fromAnsibleJson(v, b.file) as typeof v);
}

/** Adds one parsed file to the run's inventory, noting where each variable came from (vault values stay encrypted). */
export function mergeInto(dst: InventoryBuilder, src: InventoryBuilder, origins: Origins, merge = false): void {
  const file = src.file;
  for (const g of src.groups.values()) {
    dst.addGroup(g.name);
    for (const [k, v] of Object.entries(g.vars)) {
      dst.setGroupVar(g.name, k, combineValue(dst.groups.get(g.name)?.vars[k], v, merge));
      noteOrigin(origins, `g:${g.name}`, k, file);
    }
  }
  for (const [g, p] of src.priority) dst.priority.set(g, p);
  for (const g of src.groups.values()) {
    for (const c of g.children) {
      const cycle = dst.addChild(g.name, c);
      if (cycle) dst.errors.push({ message: `children form a cycle: ${cycle.join(' -> ')}`, pos: { file } });
    }
  }
  // hosts in the order first seen, each group's hosts in the group's own order (ansible-inventory --graph shows it)
  for (const h of src.hostGroups.keys()) dst.knowHost(h);
  for (const g of src.groups.values()) for (const h of g.hosts) dst.addHost(h, g.name);
  for (const h of src.hostGroups.keys()) {
    for (const [k, v] of Object.entries(src.hostVars.get(h) ?? {})) {
      dst.setHostVar(h, k, combineValue(dst.hostVars.get(h)?.[k], v, merge));
      noteOrigin(origins, `h:${h}`, k, file);
    }
  }
}
