/** Reads an inventory file as Ansible's plugin chain would: yaml (by extension or content), else ini. */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { InputError, UsageError } from '../errors.ts';
import { InventoryBuilder, type Problem } from './builder.ts';
import { readIni } from './ini.ts';
import type { Inventory } from './types.ts';
import { rememberSecrets } from '../secrets.ts';
import { YamlInventoryReader } from './yaml.ts';

function fail(errors: Problem[]): never {
  const lines = errors.map((e) => `${e.pos.file}${e.pos.line ? `:${e.pos.line}` : ''}${e.pos.line && e.pos.col ? `:${e.pos.col}` : ''}: ${e.message}`);
  const first = errors[0];
  const msg = errors.length === 1 ? first.message : `${errors.length} problems in the inventory:\n  ${lines.join('\n  ')}`;
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

/** Parses inventory text; `file` names it in messages and decides YAML by extension as Ansible does. */
export function parseInventory(text: string, file: string): Inventory {
  const ext = extname(file).toLowerCase();
  const yamlByName = ext === '' || ext === '.yml' || ext === '.yaml' || ext === '.json';
  if (yamlByName) {
    const y = new InventoryBuilder(file);
    const isMapping = new YamlInventoryReader(y).read(text);
    if (isMapping && !y.errors.length) return finish(y);
    // Ansible lets the ini plugin try whatever the yaml plugin refused
    const i = new InventoryBuilder(file);
    readIni(i, text);
    if (!i.errors.length) return finish(i);
    const looksYaml = isMapping || ext !== '' || /^\s*(---|\w[\w.-]*:\s*$)/m.test(text);
    fail(looksYaml && y.errors.length ? y.errors : i.errors);
  }
  const i = new InventoryBuilder(file);
  readIni(i, text);
  return finish(i);
}

export async function loadInventory(file: string): Promise<Inventory> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read inventory: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { pos: { file }, cause: e });
  }
  return parseInventory(text, file);
}

/** -i FILE, else the running lab's inventory. */
export function resolveInventoryPath(opt: string | undefined, cwd: string): string {
  if (opt) return resolve(cwd, opt);
  const lab = join(cwd, '.lab', 'inventory.yml');
  // the default lab is up while its daemon's pid file exists (`lab down` removes it); a stale inventory is no default
  if (existsSync(lab) && existsSync(join(cwd, '.lab', 'run', 'daemon.pid'))) return lab;
  const hint = existsSync(lab) ? ' (.lab/inventory.yml is there, but the lab is down)' : '';
  throw new UsageError(`no inventory${hint}: pass -i FILE (an Ansible inventory, YAML or INI), or start the lab with \`smdoctor lab up\``);
}
