/** Drives the CLI in-process with captured streams, as the real entry point would. */
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/main.ts';
import type { CliContext, RunDeps } from '../../src/cli/context.ts';

export interface CaptureOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** stdout is a terminal (text format, colour). */
  tty?: boolean;
  /** Bytes on standard input; without it stdin stays open and empty. */
  stdin?: string;
  /** stdin is a terminal (no piped query). */
  stdinTTY?: boolean;
  /** The run's dependencies a test replaces. */
  deps?: Partial<RunDeps>;
}

export type CapturedContext = CliContext & { out: () => string; err: () => string };

export function captureContext(o: CaptureOptions = {}): CapturedContext {
  const stdout = Object.assign(new PassThrough(), { isTTY: o.tty ?? false });
  const stderr = new PassThrough();
  const stdin = Object.assign(new PassThrough(), o.stdinTTY ? { isTTY: true } : {});
  if (o.stdin !== undefined) stdin.end(o.stdin);
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  return {
    stdout,
    stderr,
    stdin,
    env: o.env ?? {},
    cwd: o.cwd ?? process.cwd(),
    ...(o.deps ? { deps: o.deps } : {}),
    out: () => out,
    err: () => err,
  };
}

/** The same context (streams and captures shared) with these dependencies replaced. */
export const withDeps = <C extends CliContext>(ctx: C, deps: Partial<RunDeps>): C => ({ ...ctx, deps });

/** `smdoctor ...args`; resolves to the exit code main() chose and what was printed. */
export async function runCli(
  args: string[],
  o: CaptureOptions = {},
): Promise<{ code: number; out: string; err: string }> {
  const ctx = captureContext(o);
  const code = await main(['node', 'smdoctor', ...args], ctx);
  return { code, out: ctx.out(), err: ctx.err() };
}
