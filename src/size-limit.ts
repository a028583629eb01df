/** One limit on what smdoctor reads from a host, a command or a file it does not own: past it, stop reading. */

/** Bytes read of one remote file (a config, a plugin descriptor) before it is "too large to audit". */
export const DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024;

/** `SMDOCTOR_MAX_FILE_MIB` (a positive number) changes the limit; anything else keeps the default. */
export function maxFileBytes(env: NodeJS.ProcessEnv = process.env): number {
  const mib = Number(env.SMDOCTOR_MAX_FILE_MIB);
  return Number.isFinite(mib) && mib > 0 ? Math.floor(mib * 1024 * 1024) : DEFAULT_MAX_FILE_BYTES;
}

/** A whole command's output (a host's batched read holds several files): four files' worth. */
export const maxOutputBytes = (env: NodeJS.ProcessEnv = process.env): number => 4 * maxFileBytes(env);

/** An inventory script's answer (a whole fleet's variables): sixteen files' worth. */
export const maxScriptOutputBytes = (env: NodeJS.ProcessEnv = process.env): number => 16 * maxFileBytes(env);

/** `16 MiB`, for messages. */
export const mib = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`;

/** Chunks kept up to `cap` bytes; past it the rest is dropped and `over` says so (the caller stops the source). */
export class CappedBuffer {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  over = false;
  constructor(private readonly cap: number) {}

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
export const maxApiBodyBytes = (env: NodeJS.ProcessEnv = process.env): number => 4 * maxFileBytes(env);
