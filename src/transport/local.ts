/** The same Transport on this machine: `sh -c` through execa, same sudo rules, timeout and atomic write. */
import { execa } from 'execa';
import { TransportError } from '../base/errors.ts';
import type { SshTarget } from './types.ts';
import { ShellTransport, type RawResult } from './shell.ts';
import { maxOutputBytes, mib } from '../base/limits.ts';

export class LocalTransport extends ShellTransport {
  private readonly maxOutput: number;
  constructor(cfg: SshTarget, opts: { timeout: number; env?: NodeJS.ProcessEnv }) {
    super(cfg, opts.timeout);
    this.maxOutput = maxOutputBytes(opts.env ?? {});
  }

  protected async run(command: string, stdin: Buffer | undefined, timeout: number): Promise<RawResult> {
    // Own process group, so a timeout kills the whole pipeline rather than only sh.
    const child = execa('sh', ['-c', command], {
      input: stdin ?? '',
      encoding: 'buffer',
      reject: false,
      detached: true,
      stripFinalNewline: false,
      // a file without end (a huge config, /dev/zero) stops at the limit instead of taking the memory
      maxBuffer: { stdout: this.maxOutput, stderr: 1024 * 1024 },
    });
    let timedOut = false;
    const timer =
      timeout > 0
        ? setTimeout(() => {
            timedOut = true;
            try {
              process.kill(-child.pid!, 'SIGKILL');
            } catch {
              /* already gone */
            }
          }, timeout * 1000)
        : undefined;
    const r = await child.finally(() => clearTimeout(timer));
    if (timedOut)
      throw new TransportError('TIMEOUT', this.host, `command did not finish within ${timeout}s on this machine`);
    if (r.isMaxBuffer)
      return {
        code: 255,
        stdout: Buffer.from(r.stdout as Uint8Array),
        stderr: Buffer.from(`output stopped at ${mib(this.maxOutput)}: too large to audit`),
      };
    if (r.failed && r.exitCode === undefined && !r.signal) {
      throw new TransportError('REMOTE', this.host, `cannot run sh: ${r.shortMessage}`, { cause: r });
    }
    return {
      code: r.exitCode ?? 128 + signalNumber(r.signal),
      stdout: Buffer.from(r.stdout as Uint8Array),
      stderr: Buffer.from(r.stderr as Uint8Array),
    };
  }

  async close(): Promise<void> {}
}

function signalNumber(sig: string | undefined): number {
  const n = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }[sig ?? ''];
  return n ?? 127;
}
