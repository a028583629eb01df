/** The playbook directory, whole or not at all: written beside the target, then renamed into place. */
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { InputError, SmdoctorError } from '../base/errors.ts';
import type { OutFile } from './ansible.ts';
import { readsAsMeant } from './yaml11.ts';

/** The target must be new or an empty directory: a playbook someone may have edited is never overwritten. */
export async function checkTarget(dir: string): Promise<void> {
  const parent = await stat(dirname(dir)).catch(() => null);
  if (!parent?.isDirectory()) throw new InputError(`${dir}: its parent directory does not exist`);
  const st = await stat(dir).catch(() => null);
  if (!st) return;
  if (!st.isDirectory()) throw new InputError(`${dir}: exists and is not a directory`);
  if ((await readdir(dir)).length)
    throw new InputError(`${dir}: the directory is not empty: choose a new one (an earlier export is not overwritten)`);
}

export async function writePlaybookDir(dir: string, files: OutFile[]): Promise<void> {
  await checkTarget(dir);
  const tmp = join(dirname(dir), `.${basename(dir)}.smdoctor-${process.pid}`);
  try {
    await mkdir(tmp, { mode: 0o755 });
    for (const f of files) {
      const path = join(tmp, f.path);
      const rel = relative(tmp, path);
      if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`))
        throw new SmdoctorError('INTERNAL', `${f.path}: outside the playbook directory: nothing was written`);
      await mkdir(dirname(path), { recursive: true, mode: f.secret ? 0o700 : 0o755 });
      // a file that holds a secret is for its owner only, until it is encrypted with ansible-vault
      await writeFile(path, f.content, { mode: f.secret ? 0o600 : 0o644 });
      // what Ansible will read is checked, not what was meant: the structure must be the one written
      if (f.yaml !== undefined && !readsAsMeant(await readFile(path, 'utf8'), f.yaml))
        throw new SmdoctorError(
          'INTERNAL',
          `${f.path}: read as YAML 1.1 (as Ansible reads it), it is not the playbook smdoctor meant to write: nothing was written`,
        );
    }
    // rename(2) replaces an empty directory, and nothing else
    await rename(tmp, dir);
  } catch (err) {
    await rm(tmp, { recursive: true, force: true });
    throw err instanceof SmdoctorError
      ? err
      : new InputError(`${dir}: the playbook could not be written: ${(err as Error).message}`, { cause: err });
  }
}
