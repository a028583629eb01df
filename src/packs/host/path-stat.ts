/** `path:` metadata, for every path the packs name, from one `stat` per host (two with `follow: true` paths). */
import { shQuote as shq } from '../../transport/command.ts';

export interface PathInfo {
  exists: boolean;
  type?: 'file' | 'directory' | 'symlink' | 'other';
  /** Permission bits as an octal string, `"0640"` (`"4755"` with setuid). */
  mode?: string;
  owner?: string;
  group?: string;
  size?: number;
  /** Epoch seconds. */
  modified?: number;
}

/** `%f` raw mode (hex), ids, names, size, mtime, then the name as given: the name last, so spaces in it are kept. */
const FORMAT = '%f %u %g %U %G %s %Y %n';

/**
 * Shell lines: one `stat` for the links themselves (`lstat`), one `-L` for `follow: true` paths, each in a section of its
 * own. Paths are the packs' absolute paths, checked at load (no control character), single-quoted.
 */
export function statLines(paths: readonly string[], follow: readonly string[], tag: (f: boolean) => string): string[] {
  const one = (list: readonly string[], f: boolean) =>
    list.length
      ? [
          `if command -v stat >/dev/null 2>&1; then printf '%s FILE %s\\n' "$B" ${shq(tag(f))}; ` +
            `stat ${f ? '-L ' : ''}-c ${shq(FORMAT)} -- ${list.map(shq).join(' ')} 2>/dev/null; ` +
            `printf '\\n%s END 0\\n' "$B"; else printf '%s ABSENT %s\\n' "$B" ${shq(tag(f))}; fi`,
        ]
      : [];
  return [...one(paths, false), ...one(follow, true)];
}

const TYPES: Record<number, PathInfo['type']> = { 0o100000: 'file', 0o040000: 'directory', 0o120000: 'symlink' };

/** stat's lines by path; a path with no line does not exist (stat said so on stderr). */
export function parseStat(text: string): Map<string, PathInfo> {
  const out = new Map<string, PathInfo>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]+) (\d+) (\d+) (\S+) (\S+) (\d+) (-?\d+) (.+)$/.exec(line);
    if (!m) continue;
    const raw = parseInt(m[1]!, 16);
    out.set(m[8]!, {
      exists: true,
      type: TYPES[raw & 0o170000] ?? 'other',
      mode: (raw & 0o7777).toString(8).padStart(4, '0'),
      // a uid with no name: stat says UNKNOWN, the number says more
      owner: m[4] === 'UNKNOWN' ? m[2]! : m[4]!,
      group: m[5] === 'UNKNOWN' ? m[3]! : m[5]!,
      size: Number(m[6]),
      modified: Number(m[7]),
    });
  }
  return out;
}
