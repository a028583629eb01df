/** Where each test tier lives, for the runners (the unit tier is imported into one process). */
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const UNIT_DIRS = ['test/unit', 'lab/test/unit'];

/** Every `*.test.ts` below a folder of the repository, as repository-relative paths (test/fixtures left out). */
export async function testFiles(dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.test.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((f) => !f.startsWith('test/fixtures/'));
}

/** The unit test files as import URLs, in a stable order; `only` (paths or parts of them) narrows them. */
export async function unitFiles(only: readonly string[] = []): Promise<string[]> {
  const found = (await Promise.all(UNIT_DIRS.map(testFiles))).flat();
  const wanted = (f: string): boolean => only.length === 0 || only.some((o) => f.includes(o.replace(/^\.\//, '')));
  return found
    .sort()
    .filter(wanted)
    .map((f) => pathToFileURL(join(root, f)).href);
}
