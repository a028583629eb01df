/** The host-key policy of ssh_host_key_checking applied to the key a server presented. */
import { TransportError, unhandled } from '../base/errors.ts';
import type { SshTarget } from './types.ts';
import {
  appendKnownHost,
  checkHostKey,
  fingerprint,
  keyTypeOf,
  knownHostsEntryLine,
  loadKnownHosts,
  lookupHost,
  type KnownHostEntry,
} from './known-hosts.ts';

/** Every known-hosts file of cfg, as OpenSSH reads every UserKnownHostsFile: the first is the one written to. */
async function knownEntries(cfg: SshTarget): Promise<{ entries: KnownHostEntry[]; files: string }> {
  const all = [cfg.knownHostsFile, ...(cfg.knownHostsAlso ?? [])];
  const parsed = await Promise.all(all.map((f) => loadKnownHosts(f)));
  return { entries: parsed.flatMap((p) => p.entries), files: all.join(', ') };
}

/** Resolves when the key may be used; rejects with TransportError('HOST_KEY') otherwise. */
export async function verifyHostKey(cfg: SshTarget, key: Buffer, warn?: (message: string) => void): Promise<void> {
  const { entries, files } = await knownEntries(cfg);
  const verdict = checkHostKey(entries, cfg.address, cfg.port, key);
  const where = `${cfg.address}:${cfg.port}`;
  const got = fingerprint(key);
  const policy = cfg.hostKeyChecking;
  switch (verdict.status) {
    case 'known':
      return;
    case 'revoked':
      throw new TransportError(
        'HOST_KEY',
        cfg.name,
        `the host key of ${where} (${got}) is marked @revoked in ${files}`,
      );
    case 'changed': {
      const msg =
        `the host key of ${where} has CHANGED: known_hosts (${files}) has ${verdict.expected.join(', ')}, ` +
        `the server presented ${got}; someone may be intercepting the connection`;
      if (policy === 'off') {
        warn?.(`WARNING: ${cfg.name}: ${msg}; continuing because ssh_host_key_checking is off`);
        return;
      }
      throw new TransportError(
        'HOST_KEY',
        cfg.name,
        `${msg}. If the change is expected, remove the old line from ${files}`,
      );
    }
    case 'unknown': {
      const also = verdict.otherTypes.length
        ? ` (known_hosts holds only ${verdict.otherTypes.join(', ')} keys for it)`
        : '';
      if (policy === 'accept-new') {
        await appendKnownHost(cfg.knownHostsFile, knownHostsEntryLine(cfg.address, cfg.port, key));
        warn?.(
          `${cfg.name}: recorded the new ${keyTypeOf(key)} host key of ${where} (${got}) in ${cfg.knownHostsFile}`,
        );
        return;
      }
      if (policy === 'off') {
        warn?.(`WARNING: ${cfg.name}: host key checking is OFF: the identity of ${where} (${got}) is not verified`);
        return;
      }
      throw new TransportError(
        'HOST_KEY',
        cfg.name,
        `the host key of ${where} (${got}) is not in ${files}${also}; ` +
          'add it (ssh-keyscan) or set ssh_host_key_checking: accept-new',
      );
    }
    default:
      unhandled(verdict, 'known_hosts verdict');
  }
}

/** ssh2's default host-key algorithms, strongest first. */
const DEFAULT_HOST_KEY_ALGORITHMS = [
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'rsa-sha2-512',
  'rsa-sha2-256',
  'ssh-rsa',
];

/**
 * Algorithms to offer, those of the key types known_hosts holds for the host first, as ssh does:
 * otherwise a host known by its RSA key would present an unknown ed25519 key and be refused.
 */
export function preferredHostKeyAlgorithms(knownTypes: readonly string[]): string[] {
  const algos = (type: string) => (type === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [type]);
  const first = knownTypes.flatMap(algos).filter((a) => DEFAULT_HOST_KEY_ALGORITHMS.includes(a));
  return [...new Set([...first, ...DEFAULT_HOST_KEY_ALGORITHMS])];
}

/** The key types known_hosts already holds for cfg's address and port. */
export async function knownKeyTypes(cfg: SshTarget): Promise<string[]> {
  const { entries } = await knownEntries(cfg).catch(() => ({ entries: [] }));
  return [...new Set(lookupHost(entries, cfg.address, cfg.port).map((e) => e.keyType))];
}
