import { createHash } from 'node:crypto';

/** Hex sha256 of a file's text: fix refuses to write when the file is no longer what the diff was computed against. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
