/** Local files smdoctor writes (-o reports): checked before any work, written whole, never replacing what is not a plain file. */
import { constants } from 'node:fs';
import { access, chmod, lstat, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../base/errors.ts';

const code = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;

/** Whether the path may be written: throws UsageError (exit 2) naming the reason, touching nothing. */
export async function checkWritable(path: string, what = '-o'): Promise<void> {
  const bad = (reason: string): never => {
    throw new UsageError(`${what} ${path}: ${reason}`);
  };
  let link;
  try {
    link = await lstat(path);
  } catch (e) {
    // ENOTDIR: a parent is a file, which checkDir names
    if (code(e) !== 'ENOENT' && code(e) !== 'ENOTDIR') bad(`cannot be checked (${code(e) ?? String(e)})`);
  }
  if (!link) return checkDir(dirname(path), bad);
  let target;
  try {
    target = link.isSymbolicLink() ? await stat(path) : link;
  } catch (e) {
    return bad(`is a symbolic link to a missing or unreachable file (${code(e) ?? String(e)})`);
  }
  if (target.isDirectory()) bad('is a directory');
  if (target.isSocket()) bad('is a socket');
  try {
    await access(path, constants.W_OK);
  } catch {
    bad('is not writable');
  }
  // a plain file is replaced by a rename: its directory must take the temp file
  if (link.isFile()) await checkDir(dirname(path), bad);
}

async function checkDir(dir: string, bad: (reason: string) => never): Promise<void> {
  let s;
  try {
    s = await stat(dir);
  } catch (e) {
    if (code(e) === 'ENOTDIR') return bad(`a parent of ${dir} is not a directory`);
    return bad(
      code(e) === 'ENOENT'
        ? `its directory ${dir} does not exist`
        : `its directory ${dir} cannot be read (${code(e) ?? String(e)})`,
    );
  }
  if (!s.isDirectory()) bad(`${dir} is not a directory`);
  try {
    await access(dir, constants.W_OK | constants.X_OK);
  } catch {
    bad(`its directory ${dir} is not writable`);
  }
}

/**
 * Writes text to path. A plain file (or a new path) gets a temp file in the same directory and a rename,
 * so it is whole or untouched; a device, FIFO or symlink is opened and written in place, never replaced.
 */
export async function writeOutput(path: string, text: string): Promise<void> {
  let link;
  try {
    link = await lstat(path);
  } catch (e) {
    if (code(e) !== 'ENOENT') throw e;
  }
  if (link && !link.isFile()) {
    await writeFile(path, text);
    return;
  }
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, text, { flag: 'wx', mode: link ? link.mode & 0o777 : 0o666 });
    if (link) await chmod(tmp, link.mode & 0o7777);
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

/** A directory smdoctor will create if needed (--backup-dir): its nearest existing ancestor must be a writable directory. */
export async function checkCreatableDir(dir: string, what: string): Promise<void> {
  const bad = (reason: string): never => {
    throw new UsageError(`${what} ${dir}: ${reason}`);
  };
  for (let d = dir; ; d = dirname(d)) {
    let s;
    try {
      s = await stat(d);
    } catch (e) {
      // a dangling link is not a directory mkdir can make: writing through it fails after the work is done
      if (
        await lstat(d).then(
          (l) => l.isSymbolicLink(),
          () => false,
        )
      )
        return bad(`${d} is a symbolic link to a missing directory`);
      if ((code(e) === 'ENOENT' || code(e) === 'ENOTDIR') && dirname(d) !== d) continue;
      return bad(`cannot be checked (${code(e) ?? String(e)})`);
    }
    if (!s.isDirectory()) bad(`${d} is not a directory`);
    try {
      await access(d, constants.W_OK | constants.X_OK);
    } catch {
      bad(`${d} is not writable`);
    }
    return;
  }
}
