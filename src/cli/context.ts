import { resolve } from 'node:path';
import { writeOutput } from './output.ts';
import { escapeControls } from '../escape.ts';
import { redactText } from '../secrets.ts';

/** What a command may touch of the outside world; tests pass their own. */
export interface CliContext {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  stdin: NodeJS.ReadableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processContext(): CliContext {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

import type { Format } from '../report/index.ts';

export type { Format };

export interface CommonOptions {
  /** Every -i, in order. */
  inventory?: string[];
  vaultPasswordFile?: string[];
  vaultId?: string[];
  askVaultPass?: boolean;
  sshConfig?: string;
  jumpChannels?: number;
  limit?: string;
  format?: Format;
  output?: string;
  forks: number;
  timeout: number;
  verbose: number;
}

/** Writes a report to -o FILE (a plain file whole or not at all; a device or FIFO in place) or to standard output. */
export async function emit(ctx: CliContext, text: string, output?: string): Promise<void> {
  if (!output) {
    ctx.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    return;
  }
  await writeOutput(resolve(ctx.cwd, output), text.endsWith('\n') ? text : `${text}\n`);
}

/** One `smdoctor: …` line on standard error: a message may quote a host, the API or a document, so it is escaped and redacted. */
export const sayTo =
  (out: NodeJS.WritableStream) =>
  (m: string): void => {
    out.write(`smdoctor: ${escapeControls(redactText(m))}\n`);
  };

/** `text` on a terminal, `json` when piped, unless the user chose. */
export function effectiveFormat(ctx: CliContext, format?: Format, output?: string): Format {
  if (format) return format;
  return ctx.stdout.isTTY && !output ? 'text' : 'json';
}
