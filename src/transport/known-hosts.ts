/** known_hosts: parsing, host lookup (plain, wildcard, [host]:port, hashed), fingerprints. Pure except appendKnownHost. */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { appendFile, mkdir, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface KnownHostEntry {
  line: number;
  marker: 'revoked' | 'cert-authority' | null;
  /** Comma-separated patterns as written (may be one hashed |1|salt|hash). */
  patterns: string[];
  keyType: string;
  key: Buffer;
}

export interface KnownHostsProblem {
  line: number;
  message: string;
}

/** Lines that cannot be read are reported and skipped, as ssh does. */
export function parseKnownHosts(text: string): { entries: KnownHostEntry[]; problems: KnownHostsProblem[] } {
  const entries: KnownHostEntry[] = [];
  const problems: KnownHostsProblem[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = i + 1;
    const s = raw.trim();
    if (s === '' || s.startsWith('#')) return;
    const fields = s.split(/\s+/);
    let marker: KnownHostEntry['marker'] = null;
    if (fields[0]!.startsWith('@')) {
      const m = fields.shift()!;
      if (m !== '@revoked' && m !== '@cert-authority') {
        problems.push({ line, message: `unknown marker ${m}` });
        return;
      }
      marker = m === '@revoked' ? 'revoked' : 'cert-authority';
    }
    const [hosts, keyType, b64] = fields;
    if (!hosts || !keyType || !b64 || !/^[A-Za-z0-9+/]+=*$/.test(b64)) {
      problems.push({ line, message: 'expected "hosts keytype base64-key"' });
      return;
    }
    entries.push({ line, marker, patterns: hosts.split(','), keyType, key: Buffer.from(b64, 'base64') });
  });
  return { entries, problems };
}

/** The name ssh looks up: bare host on port 22, "[host]:port" otherwise. */
export function hostKeyName(address: string, port: number): string {
  return port === 22 ? address : `[${address}]:${port}`;
}

/** "|1|salt|hash" with hash = HMAC-SHA1(key = salt, name). */
export function hashHostName(name: string, salt: Buffer): string {
  const mac = createHmac('sha1', salt).update(name).digest();
  return `|1|${salt.toString('base64')}|${mac.toString('base64')}`;
}

// a fleet's known_hosts has a pattern per host, matched for every host: each is compiled once, not once per lookup
const compiled = new Map<string, RegExp>();

function globMatch(pattern: string, name: string): boolean {
  let re = compiled.get(pattern);
  if (!re) {
    const source = pattern
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.');
    if (compiled.size >= 100_000) compiled.clear();
    compiled.set(pattern, (re = new RegExp(`^${source}$`, 'i')));
  }
  return re.test(name);
}

function patternMatches(pattern: string, name: string): boolean {
  if (pattern.startsWith('|1|')) {
    const [, , salt, hash] = pattern.split('|');
    if (!salt || !hash) return false;
    const want = Buffer.from(hash, 'base64');
    const got = createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest();
    return want.length === got.length && timingSafeEqual(want, got);
  }
  return globMatch(pattern, name);
}

/** ssh semantics: some pattern matches and no negated (!pattern) one does. */
export function entryMatches(entry: KnownHostEntry, name: string): boolean {
  let hit = false;
  for (const p of entry.patterns) {
    if (p.startsWith('!')) {
      if (patternMatches(p.slice(1), name)) return false;
    } else if (patternMatches(p, name)) hit = true;
  }
  return hit;
}

/** Plain host-key entries (no markers) for a host. */
export function lookupHost(entries: readonly KnownHostEntry[], address: string, port: number): KnownHostEntry[] {
  const name = hostKeyName(address, port);
  return entries.filter((e) => e.marker === null && entryMatches(e, name));
}

/** The key type named inside an SSH public key blob (its first string). */
export function keyTypeOf(blob: Buffer): string {
  if (blob.length < 4) return '';
  const n = blob.readUInt32BE(0);
  return blob.subarray(4, 4 + n).toString('latin1');
}

/** "SHA256:<base64 without padding>", as ssh-keygen -l prints it. */
export function fingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

export type HostKeyVerdict =
  | { status: 'known' }
  | { status: 'unknown'; otherTypes: string[] }
  | { status: 'changed'; expected: string[] }
  | { status: 'revoked' };

/** What known_hosts says about the key a server presented. */
export function checkHostKey(
  entries: readonly KnownHostEntry[],
  address: string,
  port: number,
  key: Buffer,
): HostKeyVerdict {
  // A revoked key is refused for every host, whatever the patterns say.
  if (entries.some((e) => e.marker === 'revoked' && e.key.equals(key))) return { status: 'revoked' };
  const known = lookupHost(entries, address, port);
  if (known.some((e) => e.key.equals(key))) return { status: 'known' };
  const type = keyTypeOf(key);
  const sameType = known.filter((e) => e.keyType === type);
  if (sameType.length) return { status: 'changed', expected: sameType.map((e) => fingerprint(e.key)) };
  return { status: 'unknown', otherTypes: [...new Set(known.map((e) => e.keyType))] };
}

/** The line accept-new records. */
export function knownHostsEntryLine(address: string, port: number, key: Buffer): string {
  return `${hostKeyName(address, port)} ${keyTypeOf(key)} ${key.toString('base64')}`;
}

/** Appends one line with O_APPEND; creates the file 0600 and its directory 0700 when missing. */
export async function appendKnownHost(file: string, line: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  let prefix = '';
  const size = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  if (size > 0) {
    const text = await readFile(file, 'utf8');
    if (!text.endsWith('\n')) prefix = '\n';
  }
  await appendFile(file, `${prefix}${line}\n`, { mode: 0o600, flag: 'a' });
}

type Parsed = ReturnType<typeof parseKnownHosts>;
/** Parsed files by path, with the stat they were read at: every connection of a run reads the same file. */
const parsedFiles = new Map<string, { stamp: string; parsed: Parsed }>();

/**
 * Reads and parses a known_hosts file; a missing file is an empty one. A file unchanged since it was last read
 * (same inode, size and modification time) is not parsed again: at a thousand hosts that was a thousand lines
 * parsed per connection.
 */
export async function loadKnownHosts(file: string): Promise<Parsed> {
  const st = await stat(file).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (!st) return parseKnownHosts('');
  const stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
  const seen = parsedFiles.get(file);
  if (seen?.stamp === stamp) return seen.parsed;
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return '';
    throw err;
  });
  const parsed = parseKnownHosts(text);
  if (parsedFiles.size >= 64) parsedFiles.clear();
  parsedFiles.set(file, { stamp, parsed });
  return parsed;
}
