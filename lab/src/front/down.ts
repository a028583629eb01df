/** Takes front-mode hosts down and brings them back, as hosts that went away: for benchmarks of reconnects. */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { downAppliedFile, downFile, frontDir, readDown } from './config.ts';

/** Holds exactly `names` down (none: all up) and resolves once the front has applied it. */
export async function setFrontDown(labDir: string, names: readonly string[], timeoutMs = 30_000): Promise<void> {
  const want = [...new Set(names)].sort();
  const file = downFile(labDir);
  await writeFile(`${file}.tmp`, want.map((n) => `${n}\n`).join(''));
  await rename(`${file}.tmp`, file);
  const pid = Number((await readFile(join(frontDir(labDir), 'front.pid'), 'utf8')).trim());
  process.kill(pid, 'SIGHUP');
  const deadline = Date.now() + timeoutMs;
  while (readDown(downAppliedFile(labDir)).join('\n') !== want.join('\n')) {
    if (Date.now() > deadline) throw new Error(`the lab's front did not apply ${file} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
