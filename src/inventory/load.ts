/** Reads an inventory file as Ansible's plugin chain would: yaml (by extension or content), else ini. */
import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
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

/** -i FILE, else $SMDOCTOR_INVENTORY, both relative to `cwd`. */
export function resolveInventoryPath(opt: string | undefined, cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const file = opt || env.SMDOCTOR_INVENTORY;
  if (file) return resolve(cwd, file);
  throw new UsageError('no inventory: pass -i FILE (an Ansible inventory, YAML or INI) or set SMDOCTOR_INVENTORY; `smdoctor lab up` prints one');
}
