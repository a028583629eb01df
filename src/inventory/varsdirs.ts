/** group_vars/ and host_vars/ as Ansible's host_group_vars plugin finds them, read once per run. */
import { readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { InputError } from '../base/errors.ts';
import type { InventoryWarning, Vars } from './types.ts';
import type { VaultKeys } from './vault.ts';
import { parseVarsText } from './yamlvars.ts';

const EXTS = ['.yml', '.yaml', '.json'];

export interface VarsFile {
  file: string;
  vars: Vars;
}

const errno = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;

const loop = (path: string, cause?: unknown): InputError =>
  new InputError('symbolic links form a loop here: remove or fix the link', { pos: { file: path }, cause });

type Entry = 'dir' | 'file' | 'dangling';

/** What a symbolic link leads to; a link loop is an input error naming it. */
function linkEntry(dir: string, name: string): Entry {
  try {
    return statSync(join(dir, name)).isDirectory() ? 'dir' : 'file';
  } catch (e) {
    if (errno(e) === 'ELOOP') throw loop(join(dir, name), e);
    return 'dangling';
  }
}

export class VarsDirs {
  private readonly listings = new Map<string, Map<string, Entry> | null>();
  private readonly loaded = new Map<string, Vars>();
  private readonly skipped = new Map<string, InventoryWarning>();

  private readonly vault: VaultKeys;
  constructor(vault: VaultKeys) {
    this.vault = vault;
  }

  /** Symbolic links that lead nowhere, skipped as Ansible skips them: one warning each. */
  get warnings(): InventoryWarning[] {
    return [...this.skipped.values()];
  }

  /** A dangling link is skipped, and named once. */
  private skip(path: string): void {
    if (this.skipped.has(path)) return;
    let target = '?';
    try {
      target = readlinkSync(path);
    } catch {
      // gone since it was listed: the warning still names the link
    }
    this.skipped.set(path, {
      code: 'dangling-link',
      message: `a symbolic link to ${target}, which does not exist: skipped, as Ansible skips it`,
      pos: { file: path },
    });
  }

  /** Entry name → what it is; null when the directory is not there. */
  private list(dir: string): Map<string, Entry> | null {
    let l = this.listings.get(dir);
    if (l !== undefined) return l;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      if (errno(e) === 'ELOOP') throw loop(dir, e);
      entries = null;
    }
    l =
      entries &&
      new Map(
        entries.map((d) => [
          d.name,
          d.isSymbolicLink() ? linkEntry(dir, d.name) : d.isDirectory() ? 'dir' : ('file' as Entry),
        ]),
      );
    this.listings.set(dir, l);
    return l;
  }

  /** Files of a vars directory: sorted, recursing into subdirectories without an extension, skipping hidden and backup files. */
  private dirFiles(dir: string, seen: ReadonlySet<string> = new Set()): string[] {
    // a link back to a directory above would recurse forever: each real directory is entered once per path
    const real = realpathSync(dir);
    if (seen.has(real)) throw loop(dir);
    const inside = new Set(seen).add(real);
    const out: string[] = [];
    const l = this.list(dir) ?? new Map<string, Entry>();
    for (const name of [...l.keys()].sort()) {
      if (name.startsWith('.') || name.endsWith('~')) continue;
      const ext = extname(name);
      const kind = l.get(name);
      if (kind === 'dir') {
        if (!ext) out.push(...this.dirFiles(join(dir, name), inside));
      } else if (!ext || EXTS.includes(ext)) {
        if (kind === 'dangling') this.skip(join(dir, name));
        else out.push(join(dir, name));
      }
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
      const kind = l.get(entry);
      if (kind === undefined) continue;
      // os.path.exists is false for a dangling link: Ansible tries the next extension
      if (kind === 'dangling') {
        this.skip(join(dir, entry));
        continue;
      }
      return kind === 'dir' ? this.dirFiles(join(dir, entry)) : [join(dir, entry)];
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
