/** The lab's state written whole or not at all: a temp file beside the target, then a rename over it. */
import { randomBytes } from 'node:crypto';
import { realpath, rename, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A symlinked target stays a link: the file it points to is the one replaced. */
export async function writeAtomic(path: string, text: string): Promise<void> {
  const target = await realpath(path).catch(() => path);
  const tmp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, text, { flag: 'wx' });
    await rename(tmp, target);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}
