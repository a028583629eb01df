/** Ansible Vault 1.1/1.2 (AES256): PBKDF2-SHA256 keys, HMAC-SHA256 check, AES-256-CTR, PKCS#7 padding. */
import { createCipheriv, createDecipheriv, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from 'node:crypto';
import { InputError, type SourcePos } from '../base/errors.ts';
import { markSecretValue } from '../text/index.ts';
import { PyFloat } from './pyfloat.ts';

export interface VaultSecret {
  /** The vault id label (`default` when none was given). */
  label: string;
  password: Buffer;
}

const HEADER = '$ANSIBLE_VAULT;';

export function isVaultText(text: string): boolean {
  return text.trimStart().startsWith(HEADER);
}

/** An inline `!vault |` value read from YAML, decrypted later with the run's passwords. */
export class VaultValue {
  readonly text: string;
  readonly pos: SourcePos;
  constructor(text: string, pos: SourcePos) {
    this.text = text;
    this.pos = pos;
  }

  /** As ansible-inventory --list writes a value it has not decrypted. */
  toJSON(): { __ansible_vault: string } {
    return { __ansible_vault: this.text };
  }
}

/** A value Ansible marks unsafe (`{"__ansible_unsafe": ...}` in JSON): never templated. */
export class UnsafeValue {
  readonly value: unknown;
  constructor(value: unknown) {
    this.value = value;
  }

  toJSON(): unknown {
    return this.value;
  }
}

/** Ansible's JSON decoder: `{"__ansible_vault": ...}` is an inline vault value, `{"__ansible_unsafe": ...}` unsafe text. */
export function fromAnsibleJson(v: unknown, file: string): unknown {
  if (Array.isArray(v)) return v.map((x) => fromAnsibleJson(x, file));
  if (!v || typeof v !== 'object' || v instanceof VaultValue || v instanceof UnsafeValue || v instanceof PyFloat)
    return v;
  const o = v as Record<string, unknown>;
  if (typeof o.__ansible_vault === 'string') return new VaultValue(o.__ansible_vault, { file });
  if (Object.hasOwn(o, '__ansible_unsafe')) return new UnsafeValue(o.__ansible_unsafe);
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, fromAnsibleJson(x, file)]));
}

/** The run's passwords and how they are matched to payloads. */
export interface VaultKeys {
  secrets: VaultSecret[];
  /** vault_id_match: only a password whose label is the payload's vault id is tried. */
  idMatch?: boolean;
}

interface Envelope {
  version: string;
  cipher: string;
  id?: string;
  body: string;
}

function envelope(text: string, pos: SourcePos): Envelope {
  const lines = text.trim().split(/\r?\n/);
  const head = lines[0].trim().split(';');
  if (head.length < 3 || !['1.1', '1.2'].includes(head[1].trim())) {
    throw new InputError(
      `unsupported vault header '${lines[0].trim()}' (expected $ANSIBLE_VAULT;1.1;AES256 or 1.2 with a vault id)`,
      { pos },
    );
  }
  const cipher = head[2].trim();
  if (cipher !== 'AES256') throw new InputError(`unsupported vault cipher '${cipher}': only AES256 is known`, { pos });
  return {
    version: head[1].trim(),
    cipher,
    id: head[3]?.trim() || undefined,
    body: lines
      .slice(1)
      .map((l) => l.trim())
      .join(''),
  };
}

function unhex(s: string, pos: SourcePos): Buffer {
  if (!/^(?:[0-9a-fA-F]{2})*$/.test(s)) throw new InputError('vault data is damaged: not hexadecimal', { pos });
  return Buffer.from(s, 'hex');
}

function keys(password: Buffer, salt: Buffer): [Buffer, Buffer, Buffer] {
  const derived = pbkdf2Sync(password, salt, 10000, 80, 'sha256');
  return [derived.subarray(0, 32), derived.subarray(32, 64), derived.subarray(64, 80)];
}

/** Encrypts as `ansible-vault encrypt` does (1.1, or 1.2 when a vault id other than default is given). */
export function encryptVault(plain: string, password: Buffer, id?: string): string {
  const salt = randomBytes(32);
  const [encKey, macKey, iv] = keys(password, salt);
  const data = Buffer.from(plain, 'utf8');
  const pad = 16 - (data.length % 16);
  const c = createCipheriv('aes-256-ctr', encKey, iv);
  const cipherText = Buffer.concat([c.update(Buffer.concat([data, Buffer.alloc(pad, pad)])), c.final()]);
  const mac = createHmac('sha256', macKey).update(cipherText).digest('hex');
  const body = Buffer.from([salt.toString('hex'), mac, cipherText.toString('hex')].join('\n')).toString('hex');
  const head = id && id !== 'default' ? `$ANSIBLE_VAULT;1.2;AES256;${id}` : '$ANSIBLE_VAULT;1.1;AES256';
  return `${[head, ...(body.match(/.{1,80}/g) ?? [])].join('\n')}\n`;
}

/** The plaintext when this password opens the payload, else undefined (the HMAC does not match). */
function tryOpen(salt: Buffer, mac: Buffer, cipherText: Buffer, password: Buffer): Buffer | undefined {
  const [encKey, macKey, iv] = keys(password, salt);
  const expected = createHmac('sha256', macKey).update(cipherText).digest();
  if (expected.length !== mac.length || !timingSafeEqual(expected, mac)) return undefined;
  const d = createDecipheriv('aes-256-ctr', encKey, iv);
  const padded = Buffer.concat([d.update(cipherText), d.final()]);
  const pad = padded[padded.length - 1];
  return pad >= 1 && pad <= 16 ? padded.subarray(0, padded.length - pad) : padded;
}

/**
 * Decrypts vault text. Secrets whose label matches the payload's vault id are tried first, then all
 * (Ansible does not require the id to match). A wrong password is an input error naming `pos`.
 */
export function decryptVault(text: string, secrets: VaultSecret[], pos: SourcePos, idMatch = false): string {
  const env = envelope(text, pos);
  const inner = unhex(env.body, pos).toString('latin1').split('\n');
  if (inner.length < 3) throw new InputError('vault data is damaged: expected salt, HMAC and ciphertext', { pos });
  const [salt, mac, cipherText] = [unhex(inner[0], pos), unhex(inner[1], pos), unhex(inner.slice(2).join('\n'), pos)];
  if (!secrets.length) {
    throw new InputError(
      'encrypted with Ansible Vault, but no vault password was given (--vault-password-file, --vault-id or --ask-vault-pass)',
      { pos },
    );
  }
  const id = env.id ?? 'default';
  const matching = secrets.filter((s) => s.label === id);
  const ordered = idMatch ? matching : [...matching, ...secrets.filter((s) => s.label !== id)];
  for (const s of ordered) {
    const plain = tryOpen(salt, mac, cipherText, s.password);
    if (plain) return plain.toString('utf8');
  }
  const which = env.id ? ` (vault id '${env.id}')` : '';
  const why =
    idMatch && !matching.length
      ? `no vault password is labelled '${id}' (vault_id_match is on)`
      : 'no vault password given opens it';
  throw new InputError(`cannot decrypt${which}: ${why}`, { pos });
}

/** A decrypted inline value: a secret wherever it goes. */
export function decryptInline(v: VaultValue, keys: VaultKeys): string {
  const plain = decryptVault(v.text, keys.secrets, v.pos, keys.idMatch);
  markSecretValue(plain);
  return plain;
}

/** Whether a variable tree holds an inline vault value not decrypted yet. */
export function hasVault(v: unknown): boolean {
  if (v instanceof VaultValue) return true;
  if (Array.isArray(v)) return v.some(hasVault);
  if (v && typeof v === 'object') return Object.values(v).some(hasVault);
  return false;
}
