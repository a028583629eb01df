/**
 * Config files as bytes. A file is decoded so that encoding the text again gives exactly the bytes read:
 * valid UTF-8 as UTF-8, anything else one char per byte (Latin-1). What cannot be edited that way is refused.
 */

export type FileEncoding = 'utf8' | 'latin1';

export interface DecodedFile {
  text: string;
  /** Absent for UTF-8. */
  encoding?: 'latin1';
  /** Why no edit of this file can be made safely (a UTF-16 file, NUL bytes). */
  refused?: string;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Why the bytes cannot be edited as text of one byte per ASCII character; undefined when they can. */
function unsafeBytes(b: Uint8Array): string | undefined {
  if ((b[0] === 0xfe && b[1] === 0xff) || (b[0] === 0xff && b[1] === 0xfe))
    return 'it is written in UTF-16 or UTF-32 (byte-order mark)';
  const nul = b.indexOf(0);
  if (nul >= 0)
    return `it holds a NUL byte (offset ${nul}): not a text file in an encoding smdoctor can edit byte for byte`;
  return undefined;
}

export function decodeConfig(bytes: Uint8Array): DecodedFile {
  const refused = unsafeBytes(bytes);
  const extra = refused ? { refused } : {};
  try {
    return { text: UTF8.decode(bytes), ...extra };
  } catch {
    return { text: Buffer.from(bytes).toString('latin1'), encoding: 'latin1', ...extra };
  }
}

/** The bytes of an edited text in the file's own encoding, or why it cannot be written in it. */
export function encodeConfig(text: string, encoding: FileEncoding = 'utf8'): Buffer | { error: string } {
  if (encoding === 'utf8') return Buffer.from(text, 'utf8');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
  const wide = /[^\u0000-\u00ff]/u.exec(text);
  if (wide)
    return {
      error: `the file is not UTF-8 and the edit holds ${JSON.stringify(wide[0])}, which its one-byte encoding cannot hold`,
    };
  return Buffer.from(text, 'latin1');
}

/** The bytes a decoded file was read from. */
export function fileBytes(f: { text: string; encoding?: 'latin1' }): Buffer {
  return Buffer.from(f.text, f.encoding ?? 'utf8');
}
