/** Which credentials to offer: the inventory's key, else ssh-agent, else the default key files. Never logs key material. */
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { InputError, TransportError } from '../base/errors.ts';
import type { SshTarget } from './types.ts';
import { rememberSecret } from '../text/index.ts';

export const PASSPHRASE_ENV = 'SMDOCTOR_SSH_PASSPHRASE';

export interface AuthConfig {
  privateKey?: Buffer;
  passphrase?: string;
  agent?: string;
  /** For messages only: where the key came from. */
  sources: string[];
  /** Several keys (ssh_config IdentityFile lines), tried in order after the agent. */
  keys?: Array<{ key: Buffer; passphrase?: string }>;
}

/** As OpenSSH does with IdentityFile: the agent (unless IdentitiesOnly), then every readable key file in order. */
async function configuredAuth(
  cfg: SshTarget,
  env: NodeJS.ProcessEnv,
  passphrase: string | undefined,
): Promise<AuthConfig> {
  const ssh = cfg.ssh!;
  const auth: AuthConfig = { sources: [], keys: [] };
  if (env.SSH_AUTH_SOCK && !ssh.identitiesOnly) {
    auth.agent = env.SSH_AUTH_SOCK;
    auth.sources.push(`ssh-agent (${env.SSH_AUTH_SOCK})`);
  }
  for (const file of ssh.identityFiles) {
    const data = await readFile(file).catch(() => null);
    if (!data) continue;
    try {
      usableKey(cfg.name, file, data, passphrase);
    } catch (err) {
      if (auth.agent || ssh.identityFiles.length > 1) continue;
      throw err;
    }
    auth.keys!.push({ key: data, ...(isEncryptedKey(data) ? { passphrase } : {}) });
    auth.sources.push(file);
  }
  if (!auth.agent && !auth.keys!.length) {
    throw new TransportError(
      'AUTH',
      cfg.name,
      `no SSH credentials for ${cfg.user}@${cfg.address}: none of its IdentityFile (${ssh.identityFiles.join(', ') || 'none readable'}) can be used and no ssh-agent`,
    );
  }
  return auth;
}

/** True when a private key file is passphrase-protected (OpenSSH or PEM format). */
export function isEncryptedKey(data: Buffer): boolean {
  const text = data.toString('latin1');
  if (/Proc-Type:\s*4,ENCRYPTED/.test(text) || text.includes('BEGIN ENCRYPTED PRIVATE KEY')) return true;
  const m = /-----BEGIN OPENSSH PRIVATE KEY-----([\s\S]*?)-----END OPENSSH PRIVATE KEY-----/.exec(text);
  if (!m) return false;
  const blob = Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
  const magic = 'openssh-key-v1\0';
  if (blob.subarray(0, magic.length).toString('latin1') !== magic) return false;
  const n = blob.readUInt32BE(magic.length);
  return blob.subarray(magic.length + 4, magic.length + 4 + n).toString('latin1') !== 'none';
}

/** Checks a key can be used: encrypted without a passphrase, or a wrong one, is an AUTH error naming the file. */
function usableKey(host: string, file: string, data: Buffer, passphrase: string | undefined): void {
  const encrypted = isEncryptedKey(data);
  if (encrypted && !passphrase) {
    throw new TransportError('AUTH', host, `private key ${file} is encrypted: set ${PASSPHRASE_ENV} to its passphrase`);
  }
  const parsed = ssh2.utils.parseKey(data, encrypted ? passphrase : undefined);
  if (parsed instanceof Error) {
    throw new TransportError(
      'AUTH',
      host,
      encrypted
        ? `cannot decrypt private key ${file} with the passphrase in ${PASSPHRASE_ENV}`
        : `${file} is not a private key ssh2 can read`,
    );
  }
}

export async function authConfig(cfg: SshTarget, env: NodeJS.ProcessEnv): Promise<AuthConfig> {
  const passphrase = env[PASSPHRASE_ENV] || undefined;
  rememberSecret(passphrase);
  if (!cfg.privateKeyFile && cfg.ssh) return configuredAuth(cfg, env, passphrase);
  if (cfg.privateKeyFile) {
    const data = await readFile(cfg.privateKeyFile).catch((cause: NodeJS.ErrnoException) => {
      throw new InputError(
        `ansible_ssh_private_key_file ${cfg.privateKeyFile} of host ${cfg.name} cannot be read (${cause.code ?? 'error'})`,
        { cause },
      );
    });
    usableKey(cfg.name, cfg.privateKeyFile, data, passphrase);
    return {
      privateKey: data,
      passphrase: isEncryptedKey(data) ? passphrase : undefined,
      sources: [cfg.privateKeyFile],
    };
  }
  const auth: AuthConfig = { sources: [] };
  if (env.SSH_AUTH_SOCK) {
    auth.agent = env.SSH_AUTH_SOCK;
    auth.sources.push(`ssh-agent (${env.SSH_AUTH_SOCK})`);
  }
  const home = env.HOME || homedir();
  for (const name of ['id_ed25519', 'id_rsa']) {
    const file = join(home, '.ssh', name);
    const data = await readFile(file).catch(() => null);
    if (!data) continue;
    // Defaults are best effort: a key we cannot unlock is skipped rather than fatal when an agent exists.
    try {
      usableKey(cfg.name, file, data, passphrase);
    } catch (err) {
      if (auth.agent) continue;
      throw err;
    }
    auth.privateKey = data;
    auth.passphrase = isEncryptedKey(data) ? passphrase : undefined;
    auth.sources.push(file);
    break;
  }
  if (!auth.agent && !auth.privateKey) {
    throw new TransportError(
      'AUTH',
      cfg.name,
      'no SSH credentials: set ansible_ssh_private_key_file, start ssh-agent (SSH_AUTH_SOCK), or create ~/.ssh/id_ed25519',
    );
  }
  return auth;
}
