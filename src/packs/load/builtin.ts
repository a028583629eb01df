/** Packs that ship with smdoctor: `builtin:NAME` is the package's `packs/NAME.yml`. */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../base/errors.ts';
import { PACK_NAME_RE } from '../../model/index.ts';

export const BUILTIN_PREFIX = 'builtin:';

// src/packs/ and dist/packs/ are both two folders under the package root
const DIR = fileURLToPath(new URL('../../../packs/', import.meta.url));

/** The names of the shipped packs, sorted. */
export function builtinNames(): string[] {
  try {
    return readdirSync(DIR)
      .filter((f) => f.endsWith('.yml'))
      .map((f) => f.slice(0, -4))
      .sort();
  } catch {
    return [];
  }
}

export function builtinPath(arg: string): string {
  const name = arg.slice(BUILTIN_PREFIX.length);
  if (!PACK_NAME_RE.test(name) || !builtinNames().includes(name))
    throw new UsageError(`--pack ${arg}: no such builtin pack; shipped: ${builtinNames().join(', ') || 'none'}`);
  return `${DIR}${name}.yml`;
}
