/** Resolve hooks for compiled.mjs: a module of src/ or lab/src/ resolves to its built twin when there is one. */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const BUILT = [
  [`${root}src/`, `${root}dist/`],
  [`${root}lab/src/`, `${root}lab/dist/`],
];

/** The built file for a source file, or null when it has none (then the source runs, through tsx). */
function built(file) {
  for (const [src, dist] of BUILT) {
    if (!file.startsWith(src) || !file.endsWith('.ts')) continue;
    const js = dist + file.slice(src.length, -'.ts'.length) + '.js';
    return existsSync(js) ? js : null;
  }
  return null;
}

export async function resolve(specifier, context, nextResolve) {
  const r = await nextResolve(specifier, context);
  if (!r.url.startsWith('file:')) return r;
  const js = built(fileURLToPath(r.url));
  return js ? { ...r, url: pathToFileURL(js).href, format: 'module' } : r;
}
