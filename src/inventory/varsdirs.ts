/** group_vars/ and host_vars/ as Ansible's host_group_vars plugin finds them, read once per run. */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { InputError } from '../errors.ts';
import type { Vars } from './types.ts';
import type { VaultKeys } from './vault.ts';
import { parseVarsText } from './yamlvars.ts';

const EXTS = ['.yml', '.yaml', '.json'];

export interface VarsFile {
  file: string;
  vars: Vars;
}

export class VarsDirs {
  private readonly listings = new Map<string, Map<string, boolean> | null>();
  private readonly loaded = new Map<string, Vars>();

  constructor(private readonly vault: VaultKeys) {}

  /** Entry name → is a directory; null when the directory is not there. */
  private list(dir: string): Map<string, boolean> | null {
    let l = this.listings.get(dir);
    if (l !== undefined) return l;
    try {
      l = new Map(
        readdirSync(dir, { withFileTypes: true }).map((d) => [
          d.name,
          d.isDirectory() || (d.isSymbolicLink() && statSync(join(dir, d.name)).isDirectory()),
        ]),
      );
    } catch {
      l = null;
    }
    this.listings.set(dir, l);
    return l;
  }

  /** Files of a vars directory: sorted, recursing into subdirectories without an extension, skipping hidden and backup files. */
  private dirFiles(dir: string): string[] {
    const out: string[] = [];
    const l = this.list(dir) ?? new Map<string, boolean>();
    for (const name of [...l.keys()].sort()) {
      if (name.startsWith('.') || name.endsWith('~')) continue;
      const ext = extname(name);
      if (l.get(name)) {
        if (!ext) out.push(...this.dirFiles(join(dir, name)));
      } else if (!ext || EXTS.includes(ext)) out.push(join(dir, name));
    }
    return out;
  }

  /** The files for one group or host under basedir/kind: the first of NAME, NAME.yml, NAME.yaml, NAME.json. */
  files(basedir: string, kind: 'group_vars' | 'host_vars', name: string): string[] {
    if (name.startsWith('/')) return [];
    const dir = join(basedir, kind);
    const l = this.list(dir);
    if (!l) return [];
    for (const ext of ['', ...EXTS]) {
      const entry = name + ext;
      if (!l.has(entry)) continue;
      return l.get(entry) ? this.dirFiles(join(dir, entry)) : [join(dir, entry)];
    }
    return [];
  }

  /** A vars file's variables (an empty file gives none). */
  load(file: string): Vars {
    let v = this.loaded.get(file);
    if (v) return v;
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new InputError(`cannot read variables: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, {
        pos: { file },
        cause: e,
      });
    }
    v = parseVarsText(text, file, this.vault);
    this.loaded.set(file, v);
    return v;
  }

  /** Every vars file for the entity across the sources' base directories, in source order. */
  lookup(basedirs: string[], kind: 'group_vars' | 'host_vars', name: string): VarsFile[] {
    const out: VarsFile[] = [];
    for (const b of basedirs) for (const file of this.files(b, kind, name)) out.push({ file, vars: this.load(file) });
    return out;
  }
}

/** The base directory of a source: the directory itself, or the one holding the file (symlinks resolved, as Ansible does). */
export function baseDirOf(source: string, isDir: boolean): string {
  const b = isDir ? source : join(source, '..');
  try {
    return realpathSync(b);
  } catch {
    return b;
  }
}
