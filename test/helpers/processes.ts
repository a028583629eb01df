/** Asserting that a command really died: the processes matching a pattern, once they had time to go. */
import { execa } from 'execa';

/** The `pgrep -f` matches still there after up to `timeoutMs` of waiting for none ('' when gone). */
export async function leftoverProcesses(pattern: string, timeoutMs = 5000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = (await execa('pgrep', ['-f', pattern], { reject: false })).stdout;
    if (!left || Date.now() > deadline) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}
