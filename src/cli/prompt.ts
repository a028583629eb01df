/** Asking before changing production: one question, one line of answer, only "y"/"yes" agrees. */
import { UsageError } from '../base/errors.ts';
import { escapeControls } from '../text/index.ts';
import { sayTo, type CliContext } from './context.ts';

/** Only y or yes (any case) agrees. */
export const agrees = (answer: string): boolean => /^\s*(y|yes)\s*$/i.test(answer);

/** One line from standard input; the rest of the stream is left alone. */
export function readLine(stdin: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let buf = '';
    const done = (): void => {
      stdin.off('data', onData);
      stdin.off('end', done);
      stdin.pause();
      resolve(buf.split(/\r?\n/)[0] ?? '');
    };
    const onData = (d: Buffer | string): void => {
      buf += d.toString();
      if (buf.includes('\n')) done();
    };
    stdin.on('data', onData);
    stdin.once('end', done);
    stdin.resume();
  });
}

export const stdinIsTerminal = (ctx: CliContext): boolean => (ctx.stdin as { isTTY?: boolean }).isTTY === true;

/** A script must say --yes: refuse up front, before anything is read or changed. */
export function requireConsentChannel(ctx: CliContext, yes: unknown, message: string): void {
  if (yes !== true && !stdinIsTerminal(ctx)) throw new UsageError(message);
}

/** True with --yes; otherwise asks on standard error and reads the answer. */
export async function confirm(ctx: CliContext, yes: unknown, question: string): Promise<boolean> {
  if (yes === true) return true;
  sayTo(ctx.stderr).raw(escapeControls(question)); // a question may name a document or a host
  return agrees(await readLine(ctx.stdin));
}
