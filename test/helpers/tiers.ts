/** Where each test tier lives, for the runners (the unit tier is imported into one process). */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const UNIT_DIRS = ['test/unit', 'lab/test/unit'];

/** The unit test files as import URLs, in a stable order; `only` (paths or parts of them) narrows them. */
export async function unitFiles(only: readonly string[] = []): Promise<string[]> {
  const found: string[] = [];
  for (const dir of UNIT_DIRS) {
    const entries = await readdir(join(root, dir), { recursive: true, withFileTypes: true });
    for (const e of entries) if (e.isFile() && e.name.endsWith('.test.ts')) found.push(join(e.parentPath, e.name));
  }
  const wanted = (f: string): boolean => only.length === 0 || only.some((o) => f.includes(o.replace(/^\.\//, '')));
  return found
    .map((f) => relative(root, f))
    .sort()
    .filter(wanted)
    .map((f) => pathToFileURL(join(root, f)).href);
}
