import { createHash } from 'node:crypto';

/** Hex sha256 of a file: fix refuses to write when the file is no longer what the diff was computed against. */
export function sha256(content: string | Uint8Array): string {
  // a string hashes as its UTF-8 bytes; a file's own bytes as they are
  return createHash('sha256').update(content).digest('hex');
}
