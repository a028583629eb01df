/** What smdoctor overwrites is first kept on this machine: <dir>/<UTC stamp>/<host or index>/<path>, owner-only. */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { systemClock } from './clock.ts';

/** `~` and `~/x` expand to the home directory; a relative path is taken from cwd. */
export function expandHome(dir: string, env: NodeJS.ProcessEnv, cwd: string): string {
  const home = env.HOME || homedir();
  const expanded = dir === '~' ? home : dir.startsWith('~/') ? join(home, dir.slice(2)) : dir;
  return isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
}

/** 20240102T030405.678Z: sortable, safe in a path, and one folder per run even for runs in the same second. */
export function utcStamp(d: Date): string {
  return d.toISOString().replace(/[-:]/g, '');
}

export interface BackupStore {
  /** The run's directory: <root>/<stamp>. */
  readonly dir: string;
  /** Saves content under <dir>/<owner>/<path> (owner: a host or an index) and resolves to the local path. */
  /** Bytes (a Uint8Array) are kept as they are: the backup of a file is exactly what was read. */
  save(owner: string, path: string, content: string | Uint8Array): Promise<string>;
}

export function backupStore(root: string, now: Date = new Date(systemClock.now())): BackupStore {
  const dir = join(root, utcStamp(now));
  return {
    dir,
    async save(host, path, content) {
      const safeHost = host.replace(/[/\\]/g, '_').replace(/^\.+$/, '_');
      const rel = path
        .replace(/^\/+/, '')
        .split('/')
        .filter((p) => p !== '..' && p !== '.')
        .join('/');
      let file = join(dir, safeHost, rel);
      // config files may hold secrets: every directory and file here is the owner's only
      await mkdir(dirname(file), { recursive: true, mode: 0o700 });
      for (let n = 2; ; n++) {
        try {
          await writeFile(file, content, { mode: 0o600, flag: 'wx' });
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
          // the same file edited twice in one run: the first copy is the original, keep it
          file = join(dir, safeHost, `${rel}.${n}`);
        }
      }
      await chmod(file, 0o600);
      return file;
    },
  };
}
