/**
 * serve's --auth-file: who may read the endpoints. One credential a line, each stored as a hash only:
 *   bearer sha256:HEX                 a token (long and random), sent as `Authorization: Bearer TOKEN`
 *   basic NAME scrypt:SALT:KEY        a user (base64 salt and key), sent as HTTP Basic
 * `#` starts a comment. Bad lines are refused with their line numbers, all at once.
 */
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import { UsageError } from '../base/errors.ts';
import { clientOf, fairTurns, type Turns } from './turns.ts';

export type Credential =
  { kind: 'bearer'; sha256: Buffer } | { kind: 'basic'; user: string; salt: Buffer; key: Buffer };

const KEY_LENGTH = 32;
// scrypt's defaults (N=16384, r=8, p=1): about 50 ms a check, so a guessed password costs the guesser too

/** The line for --auth-file that admits `secret` as user `user`, or as a bearer token when no user is given. */
export function credentialLine(secret: string, user?: string): string {
  if (!user) return `bearer sha256:${createHash('sha256').update(secret).digest('hex')}`;
  const salt = randomBytes(16);
  return `basic ${user} scrypt:${salt.toString('base64')}:${scryptSync(secret, salt, KEY_LENGTH).toString('base64')}`;
}

export function parseAuthFile(text: string, file: string): Credential[] {
  const out: Credential[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (!line) return;
    const f = line.split(/\s+/);
    const bearer = f[0] === 'bearer' && f.length === 2 ? /^sha256:([0-9a-f]{64})$/.exec(f[1]!) : null;
    const basic =
      f[0] === 'basic' && f.length === 3 && /^[^:\s]{1,64}$/.test(f[1]!)
        ? /^scrypt:([A-Za-z0-9+/=]{16,}):([A-Za-z0-9+/=]{40,})$/.exec(f[2]!)
        : null;
    if (bearer) out.push({ kind: 'bearer', sha256: Buffer.from(bearer[1]!, 'hex') });
    else if (basic && Buffer.from(basic[2]!, 'base64').length === KEY_LENGTH)
      out.push({
        kind: 'basic',
        user: f[1]!,
        salt: Buffer.from(basic[1]!, 'base64'),
        key: Buffer.from(basic[2]!, 'base64'),
      });
    else
      problems.push(
        `${file}:${i + 1}: not 'bearer sha256:HEX' or 'basic NAME scrypt:SALT:KEY' (make a line with smdoctor serve --hash-secret)`,
      );
  });
  if (problems.length) throw new UsageError(problems.join('\n'));
  if (!out.length) throw new UsageError(`${file}: no credential: nobody could read the endpoints`);
  return out;
}

type Claim =
  { kind: 'decided'; ok: boolean } | { kind: 'basic'; password: string; credential: Credential & { kind: 'basic' } };

/** What a header claims: a bearer token is decided at once (a hash); a known user's password still needs scrypt. */
function claim(credentials: readonly Credential[], header: string | undefined): Claim {
  const no: Claim = { kind: 'decided', ok: false };
  if (!header) return no;
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  if (bearer) {
    const h = createHash('sha256').update(bearer[1]!).digest();
    return { kind: 'decided', ok: credentials.some((c) => c.kind === 'bearer' && timingSafeEqual(c.sha256, h)) };
  }
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header);
  if (!basic) return no;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return no;
  const user = decoded.slice(0, colon);
  const c = credentials.find((x) => x.kind === 'basic' && x.user === user);
  return c?.kind === 'basic' ? { kind: 'basic', password: decoded.slice(colon + 1), credential: c } : no;
}

// headers remembered, so a scraper's repeated header costs one hash, not one scrypt; admitted and refused ones apart,
// so a flood of wrong guesses cannot push a scraper's header out
const REMEMBERED = 256;

/** A bounded memory of header digests: the oldest goes first. */
function memory(): { has(key: string): boolean; add(key: string): void } {
  const keys = new Set<string>();
  return {
    has: (key) => keys.has(key),
    add(key) {
      if (keys.size >= REMEMBERED) keys.delete(keys.values().next().value!);
      keys.add(key);
    },
  };
}

export interface Gate {
  /**
   * Whether an Authorization header admits the request from the client at `address` (the peer's IP address);
   * compared in constant time per credential.
   */
  admits(header: string | undefined, address?: string): Promise<boolean>;
}

/**
 * The endpoints' gate: scrypt runs off the event loop, in turns per client address (turns.ts), and a header already
 * decided is answered from memory. A flood of guessed passwords then costs its sender turns, never another scraper's
 * answer, nor the cycles.
 */
export function gate(
  credentials: readonly Credential[],
  kdf: typeof scrypt = scrypt,
  turns: Turns = fairTurns(),
): Gate {
  const admitted = memory();
  const refused = memory();
  return {
    async admits(header, address) {
      const c = claim(credentials, header);
      if (c.kind === 'decided') return c.ok;
      const key = createHash('sha256').update(header!).digest('hex');
      if (admitted.has(key)) return true;
      if (refused.has(key)) return false;
      return turns.take(clientOf(address), async () => {
        const derived = await new Promise<Buffer>((resolve, reject) =>
          kdf(c.password, c.credential.salt, KEY_LENGTH, (err, key) => (err ? reject(err) : resolve(key))),
        );
        const ok = timingSafeEqual(c.credential.key, derived);
        (ok ? admitted : refused).add(key);
        return ok;
      });
    },
  };
}
