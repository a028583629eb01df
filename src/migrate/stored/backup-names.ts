/** Backup file names for stored documents: always within a file system's 255-byte limit, mapped back to their ids. */
import { createHash } from 'node:crypto';

/** Bytes of the readable, URL-encoded part of a name; the rest of 255 is the hash and `.json`. */
export const READABLE_BYTES = 180;

/** `@` is always encoded in a document's name, so this file can never be a document's. */
export const ID_INDEX = '@ids.json';

/**
 * `<encoded id>.json` when it fits; else a prefix cut at READABLE_BYTES (never inside a `%XX`) plus `~` and a
 * hash of the whole id, which keeps two long ids apart. Leading dots are encoded: no hidden file, no `..`.
 */
export function backupFileName(id: string): string {
  const enc = encodeURIComponent(id).replace(/^\.+/, (m) => '%2E'.repeat(m.length));
  if (enc.length <= READABLE_BYTES) return `${enc}.json`;
  let cut = READABLE_BYTES;
  const pct = enc.lastIndexOf('%', cut);
  if (pct > cut - 3) cut = pct;
  const hash = createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 32);
  return `${enc.slice(0, cut)}~${hash}.json`;
}

/** The index file of one index's backups: file name → document id, so a cut name still says whose it is. */
export function idIndex(ids: Iterable<string>): string {
  const map: Record<string, string> = {};
  for (const id of ids) map[backupFileName(id)] = id;
  return `${JSON.stringify(map, null, 2)}\n`;
}
