/** One limit on what smdoctor reads from a host, a command or a file it does not own: past it, stop reading. */
import { UsageError } from './errors.ts';

/** Bytes read of one remote file (a config, a plugin descriptor) before it is "too large to audit". */
export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;

/** Whole MiB `SMDOCTOR_MAX_FILE_MIB` may say: sixteen times it (a script's answer) must still fit in memory. */
export const MAX_FILE_MIB = { min: 1, max: 256 } as const;

/** `SMDOCTOR_MAX_FILE_MIB`, checked: unset or empty keeps the default; not a whole number in range is exit 2. */
export function maxFileMib(env: NodeJS.ProcessEnv): number | undefined {
  const raw = env.SMDOCTOR_MAX_FILE_MIB?.trim();
  if (!raw) return undefined;
  const n = /^\d{1,4}$/.test(raw) ? Number(raw) : NaN;
  // the value is shown as typed (cut short): whoever prints the error makes its controls visible (the CLI does)
  if (!(n >= MAX_FILE_MIB.min && n <= MAX_FILE_MIB.max))
    throw new UsageError(
      `SMDOCTOR_MAX_FILE_MIB=${raw.slice(0, 40)}: give a whole number of MiB from ${MAX_FILE_MIB.min} to ${MAX_FILE_MIB.max}, or unset it for ${DEFAULT_MAX_FILE_BYTES / 1024 / 1024}`,
    );
  return n;
}

/** Bytes of one remote file smdoctor reads: `SMDOCTOR_MAX_FILE_MIB` or the default. */
export function maxFileBytes(env: NodeJS.ProcessEnv): number {
  const mib = maxFileMib(env);
  return mib === undefined ? DEFAULT_MAX_FILE_BYTES : mib * 1024 * 1024;
}

/** A whole command's output (a host's batched read holds several files): four files' worth. */
export const maxOutputBytes = (env: NodeJS.ProcessEnv): number => 4 * maxFileBytes(env);

/** An inventory script's answer (a whole fleet's variables): sixteen files' worth. */
export const maxScriptOutputBytes = (env: NodeJS.ProcessEnv): number => 16 * maxFileBytes(env);

/** `16 MiB`, for messages. */
export const mib = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`;

/** Chunks kept up to `cap` bytes; past it the rest is dropped and `over` says so (the caller stops the source). */
export class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  over = false;
  private readonly cap: number;
  constructor(cap: number) {
    this.cap = cap;
  }

  /** False once the cap is passed. */
  push(d: Buffer): boolean {
    if (this.over) return false;
    const room = this.cap - this.size;
    if (d.length > room) {
      this.chunks.push(d.subarray(0, room));
      this.size = this.cap;
      this.over = true;
      return false;
    }
    this.chunks.push(d);
    this.size += d.length;
    return true;
  }

  concat(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/** A REST API answer (a big fleet's `_cat/nodes`, a page of stored documents): four files' worth. */
export const maxApiBodyBytes = (env: NodeJS.ProcessEnv): number => 4 * maxFileBytes(env);
