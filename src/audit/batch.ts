/** One shell command per host that prints the engine config, the dashboards config and every plugin descriptor, in delimited sections. */
import { randomBytes } from 'node:crypto';
import { shQuote as shq } from '../transport/command.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../base/limits.ts';
import { layoutLines, type LayoutProbe } from './layout.ts';
import { splitMany, type ManyWanted } from '../transport/many-files.ts';

export const newBoundary = (): string => `SMDOCTOR-${randomBytes(9).toString('hex')}`;

/** What the batched command needs to find the node's folders (src/audit/layout.ts), which every read then follows. */
export interface BatchPaths {
  probe: LayoutProbe;
}

export function batchPaths(probe: LayoutProbe): BatchPaths {
  return { probe };
}

/**
 * Sections: `<B> FILE <tag>` … `<B> END <rc>` or `<B> ABSENT <tag>`; tags are `engine`, `dashboards`, `plugin <hex>`.
 * A folder name is sent as the hex of its bytes, so no name can split a line or be misread. The hex is made by the
 * shell's own builtins, a byte at a time (`printf %02x "'c"` is a character's code, and LC_ALL=C makes it a byte),
 * after the glob has listed the folders in the host's usual order: one process per file read (`head`), none per
 * folder name, and a few greps to find the node's processes and folders (`layout`, first). The newline printed before END is ours, so file bytes
 * come back exactly (run it with binary output).
 */
export function batchCommand(
  paths: BatchPaths,
  boundary: string,
  max = DEFAULT_MAX_FILE_BYTES,
  /** More sections (check packs' reads), in the same terms: `sec TAG PATH [NAME]`; `<B> OUT <tag>` for a path leading out. */
  extra: readonly string[] = [],
): string {
  return [
    `B=${shq(boundary)}`,
    `hex() { n=$1; while [ -n "$n" ]; do r=\${n#?}; c=\${n%"$r"}; printf '%02x' "'$c"; n=$r; done; }`,
    // one byte past the limit is enough to know a file is too large: the host never sends the rest
    `sec() { if [ -f "$2" ]; then printf '%s FILE %s' "$B" "$1"; [ -z "$3" ] || hex "$3"; printf '\\n'; ` +
      `head -c ${max + 1} -- "$2"; r=$?; printf '\\n%s END %s\\n' "$B" "$r"; ` +
      `else printf '%s ABSENT %s' "$B" "$1"; [ -z "$3" ] || hex "$3"; printf '\\n'; fi; }`,
    // the folders first (EC, EH, WC, WH, EP): every read below follows them
    ...layoutLines(paths.probe),
    `sec engine "$EC"/${shq(`${paths.probe.engine}.yml`)}`,
    `sec dashboards "$WC"/${shq(`${paths.probe.engine}_dashboards.yml`)}`,
    // the engine's environment, what `${VAR}` placeholders resolve from: the process found above, else unknown
    `if [ -n "$EP" ]; then sec env "/proc/$EP/environ"; else printf '%s ABSENT env\\n' "$B"; fi`,
    // the web application's, for the `${VAR}` of its config
    `if [ -n "$WP" ]; then sec webenv "/proc/$WP/environ"; else printf '%s ABSENT webenv\\n' "$B"; fi`,
    `for d in "$EH"/plugins/*/; do [ -d "$d" ] || continue; n=\${d%/}; LC_ALL=C; ` +
      `sec 'plugin ' "$d"plugin-descriptor.properties "\${n##*/}"; done`,
    ...extra,
    `printf '%s DONE\\n' "$B"`,
  ].join('\n');
}

export interface BatchSection {
  tag: string;
  /** null: absent. */
  text: string | null;
  /** Non-zero exit of the read: the file exists but could not be read. */
  readCode?: number;
  /** More bytes than the limit: text is null, the file is not audited. */
  tooLarge?: true;
  /** The path resolves outside the folder it must stay in (a symlink out): not read. */
  outside?: true;
}

export interface BatchOutput {
  sections: BatchSection[];
  /** The DONE line was seen: the command ran to its end. */
  complete: boolean;
}

export function parseBatch(stdout: string, boundary: string, max = DEFAULT_MAX_FILE_BYTES): BatchOutput {
  const lines = stdout.split('\n');
  const sections: BatchSection[] = [];
  let open: { tag: string; body: string[]; many?: true } | null = null;
  let complete = false;
  // the files of the next `MANY` section (one head over many small files), in the order head reads them
  let wanted: ManyWanted[] = [];
  const prefix = `${boundary} `;
  for (const line of lines) {
    if (!line.startsWith(prefix)) {
      open?.body.push(line);
      continue;
    }
    const rest = line.slice(prefix.length);
    const [kind] = rest.split(' ', 1);
    const arg = rest.slice(kind.length + 1);
    if (kind === 'FILE') open = { tag: arg, body: [] };
    else if (kind === 'WANT') {
      const sp = arg.indexOf(' ');
      wanted.push({ tag: arg.slice(sp + 1), name: Buffer.from(arg.slice(0, sp), 'hex').toString('latin1') });
    } else if (kind === 'MANY') open = { tag: '', body: [], many: true };
    else if (kind === 'END' && open) {
      const code = Number(arg);
      const text = open.body.join('\n');
      if (open.many) {
        sections.push(...splitMany(text, wanted, max));
        wanted = [];
      } else if (text.length > max) sections.push({ tag: open.tag, text: null, tooLarge: true });
      else sections.push({ tag: open.tag, text, ...(code ? { readCode: code } : {}) });
      open = null;
    } else if (kind === 'ABSENT') sections.push({ tag: arg, text: null });
    else if (kind === 'OUT') sections.push({ tag: arg, text: null, outside: true });
    else if (kind === 'DONE') complete = true;
  }
  return { sections, complete };
}

/** `/proc/<pid>/environ`: NUL-separated `NAME=value` entries, decoded as UTF-8. */
export function parseEnviron(bytes: Buffer): Record<string, string> {
  const env: Record<string, string> = {};
  for (const entry of bytes.toString('utf8').split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return env;
}

/** A folder name from its hex, decoded as UTF-8 (invalid bytes shown as U+FFFD, and refused). */
export function folderFromHex(hex: string): { name: string; valid: boolean } {
  const bytes = Buffer.from(hex, 'hex');
  try {
    return { name: new TextDecoder('utf-8', { fatal: true }).decode(bytes), valid: true };
  } catch {
    return { name: bytes.toString('utf8'), valid: false };
  }
}

/** Why a plugin folder name must not be handed to a shell or to the plugin tool; undefined when it is safe. */
export function unsafeFolder(name: string, valid = true): string | undefined {
  if (!valid) return 'its name is not UTF-8';
  if (name === '') return 'its name is empty';
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this finds
  if (/[\u0000-\u001f\u007f-\u009f]/u.test(name))
    return 'its name holds a control character (a newline could split it)';
  if (name.startsWith('-')) return "its name starts with '-', so the plugin tool would read it as an option";
  return undefined;
}

/** `key=value` lines of a Java properties file, as far as plugin descriptors use them. */
export function parseProperties(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith('!')) continue;
    const m = /^([^=:\s]+)\s*[=:\s]\s*(.*)$/.exec(line);
    if (m) out[m[1]] = m[2];
  }
  return out;
}
