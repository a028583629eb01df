/** Packs and waivers from files, folders and `builtin:NAME`: all read, all checked, every problem reported at once. */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { InputError, errText, posText } from '../../base/errors.ts';
import type { Pack, Waiver } from '../../model/index.ts';
import { mib } from '../../base/limits.ts';
import { builtinPath, BUILTIN_PREFIX } from './builtin.ts';
import { readPack } from './load-pack.ts';
import { readWaivers } from './load-waivers.ts';
import { Positioned, type PackProblem } from './load-yaml.ts';

/** Refused packs or waivers: every problem, each on its own line at file:line:col (exit 2). */
export class PackLoadError extends InputError {
  readonly problems: PackProblem[];
  constructor(problems: PackProblem[]) {
    super(
      `${problems.length} problem${problems.length === 1 ? '' : 's'}, nothing was run:\n${problems.map(problemLine).join('\n')}`,
    );
    this.problems = problems;
  }
}

export const problemLine = (p: PackProblem): string => `${posText(p)}: ${p.message}`;

export interface LoadOptions {
  /** Working directory the paths are relative to. */
  cwd: string;
  /** Bytes of one file before it is refused (the remote-file cap, `maxFileBytes`). */
  maxBytes: number;
}

/**
 * Bytes of one pack or waivers file at most, whatever the remote-file cap: parsing YAML costs about 100 times its size
 * in memory, so a file of this size is validated in well under a second; a larger rule set is split into packs.
 */
export const MAX_PACK_BYTES = 512 * 1024;

/** The text of one file, or a problem: missing, not a file, past the size cap. */
export async function readCapped(file: string, maxBytes: number): Promise<{ text?: string; problem?: PackProblem }> {
  try {
    const st = await stat(file);
    if (!st.isFile()) return { problem: { file, message: 'not a file' } };
    if (st.size > maxBytes)
      return { problem: { file, message: `${mib(st.size)}, past the limit of ${mib(maxBytes)}` } };
    if (st.size > MAX_PACK_BYTES)
      return {
        problem: {
          file,
          message: `${st.size} bytes, past the limit of ${MAX_PACK_BYTES} bytes (512 KiB) for one file: split it into several`,
        },
      };
    return { text: await readFile(file, 'utf8') };
  } catch (e) {
    return { problem: { file, message: `cannot be read: ${errText(e)}` } };
  }
}

/** `--pack` arguments: files, folders (their `*.yml`, in name order) and `builtin:NAME`, in the order given. */
export async function packFiles(
  args: readonly string[],
  cwd: string,
): Promise<Array<{ file: string; origin: string }>> {
  const out: Array<{ file: string; origin: string }> = [];
  for (const a of args) {
    if (a.startsWith(BUILTIN_PREFIX)) {
      out.push({ file: builtinPath(a), origin: a });
      continue;
    }
    const path = resolve(cwd, a);
    const dir = await stat(path).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!dir) out.push({ file: path, origin: a });
    else
      for (const n of (await readdir(path)).filter((f) => f.endsWith('.yml')).sort())
        out.push({ file: join(path, n), origin: join(a, n) });
  }
  return out;
}

/** One pack's text checked; the problems name `file` as given. */
export function parsePack(text: string, file: string, origin: string = file): { pack?: Pack; problems: PackProblem[] } {
  const doc = new Positioned(file, text);
  const read = doc.problems.length ? undefined : readPack(doc, origin);
  if (!read?.name) return { problems: doc.problems };
  return {
    pack: {
      name: read.name,
      ...(read.description ? { description: read.description } : {}),
      origin,
      checks: read.checks,
    },
    problems: [],
  };
}

/** Every pack named, or a PackLoadError listing every problem of every file (and pack names loaded twice). */
export async function loadPacks(args: readonly string[], o: LoadOptions): Promise<Pack[]> {
  const problems: PackProblem[] = [];
  const packs: Pack[] = [];
  const files = await packFiles(args, o.cwd);
  if (args.length && !files.length) throw new InputError(`--pack ${args.join(', ')}: no *.yml pack there`);
  for (const { file, origin } of files) {
    const { text, problem } = await readCapped(file, o.maxBytes);
    if (problem) problems.push({ ...problem, file: origin });
    if (text === undefined) continue;
    const r = parsePack(text, origin, origin);
    problems.push(...r.problems);
    if (!r.pack) continue;
    const twin = packs.find((p) => p.name === r.pack!.name);
    if (twin)
      problems.push({
        file: origin,
        line: 1,
        message: `pack name '${r.pack.name}' is loaded twice (also ${twin.origin})`,
      });
    else packs.push(r.pack);
  }
  if (problems.length) throw new PackLoadError(problems);
  return packs;
}

/** One waivers text checked. */
export function parseWaivers(text: string, file: string): { waivers?: Waiver[]; problems: PackProblem[] } {
  const doc = new Positioned(file, text);
  const waivers = doc.problems.length ? undefined : readWaivers(doc);
  return waivers ? { waivers, problems: [] } : { problems: doc.problems };
}

export async function loadWaivers(file: string, o: LoadOptions): Promise<Waiver[]> {
  const { text, problem } = await readCapped(resolve(o.cwd, file), o.maxBytes);
  if (problem) throw new PackLoadError([{ ...problem, file }]);
  const r = parseWaivers(text!, file);
  if (!r.waivers) throw new PackLoadError(r.problems);
  return r.waivers;
}
