/**
 * Stats of many paths over a connection's one SFTP session, all requests sent at once: serve's steady cycle asks
 * whether anything changed without starting a program on the node (sshd's internal-sftp or one sftp-server, opened
 * once per connection). Only attributes come back, never a file's bytes: nothing read here reaches a check.
 */
import type { SFTPWrapper, Stats } from 'ssh2';
import type { PathStat } from './types.ts';

/** The node's sshd offers no SFTP (no `Subsystem sftp`): the batched command reads it every cycle instead. */
export class SftpUnavailable extends Error {}

// SFTP status codes (draft-ietf-secsh-filexfer-02 §7)
const NO_SUCH_FILE = 2;
const PERMISSION_DENIED = 3;

/** The most paths one host may ask at once: a list from a hostile node's layout cannot grow a cycle without end. */
export const MAX_STAT_PATHS = 4096;

function statOf(path: string, err: (Error & { code?: number | string }) | undefined, s: Stats | undefined): PathStat {
  if (err || !s) {
    const code = err?.code;
    return { path, state: code === NO_SUCH_FILE ? 'absent' : code === PERMISSION_DENIED ? 'denied' : 'failed' };
  }
  return { path, state: 'ok', mode: s.mode, uid: s.uid, gid: s.gid, size: s.size, mtime: s.mtime };
}

/**
 * lstat of each path, and stat of those in `follow` (every path when it is left out), pipelined; resolves once every
 * answer is in. A path not followed gets its lstat twice: for anything but a symlink, stat says the same.
 */
export function statMany(
  sftp: SFTPWrapper,
  paths: readonly string[],
  follow?: ReadonlySet<string>,
): Promise<Array<[PathStat, PathStat]>> {
  if (paths.length > MAX_STAT_PATHS) return Promise.reject(new Error(`more than ${MAX_STAT_PATHS} paths to stat`));
  const one = (fn: 'lstat' | 'stat', p: string) =>
    new Promise<PathStat>((resolve) => {
      try {
        sftp[fn](p, (err, s) => resolve(statOf(p, err, s)));
      } catch (e) {
        resolve(statOf(p, e as Error, undefined));
      }
    });
  // every request is on the wire before the first answer is awaited: one round trip for the lot
  const asked = paths.map((p) => {
    const l = one('lstat', p);
    return [l, !follow || follow.has(p) ? one('stat', p) : l] as const;
  });
  return Promise.all(asked.map(([l, s]) => Promise.all([l, s])));
}

/** S_IFLNK: the lstat of a symbolic link (POSIX file type bits). */
export const isSymlink = (p: PathStat): boolean => p.state === 'ok' && ((p.mode ?? 0) & 0o170000) === 0o120000;
