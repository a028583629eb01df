/** Vault passwords as ansible takes them: --vault-password-file, --vault-id [label@]source, --ask-vault-pass, ANSIBLE_VAULT_PASSWORD_FILE. */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { basename, resolve } from 'node:path';
import { InputError, UsageError } from '../base/errors.ts';
import { rememberSecret } from '../text/index.ts';
import type { AnsibleSettings } from './ansiblecfg.ts';
import { decryptVault, isVaultText, type VaultSecret } from './vault.ts';

export interface VaultOptions {
  vaultPasswordFile?: string[] | string;
  vaultId?: string[] | string;
  askVaultPass?: boolean;
}

export interface VaultIo {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Asks for a password without echo; undefined when there is no terminal. */
  ask?: (question: string) => Promise<string>;
  /** vault_identity_list, vault_password_file and vault_id_match from the environment or ansible.cfg. */
  settings?: Pick<AnsibleSettings, 'vaultIdentityList' | 'vaultPasswordFile' | 'vaultIdMatch'>;
  /** Told about a configured password source that could not be read (Ansible warns and goes on). */
  warn?: (message: string) => void;
}

const list = (v: string[] | string | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * A password file's content, or what an executable one prints (a `*-client` script is told the vault id); a file
 * that is itself vault-encrypted is opened with the passwords read before it, as Ansible does.
 */
function readSource(source: string, label: string, io: VaultIo, known: VaultSecret[]): Buffer {
  const file = resolve(io.cwd, source);
  let text: string;
  if (isExecutable(file)) {
    const args = /-client(\.[^.]+)?$/.test(basename(file)) ? ['--vault-id', label] : [];
    try {
      text = execFileSync(file, args, {
        encoding: 'utf8',
        env: io.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      });
    } catch (e) {
      const code = (e as { status?: number }).status;
      throw new InputError(`vault password script failed${code !== undefined ? ` (exit ${code})` : ''}`, {
        pos: { file },
        cause: e,
      });
    }
  } else {
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new InputError(
        `cannot read vault password file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
        { pos: { file }, cause: e },
      );
    }
  }
  if (isVaultText(text)) {
    text = decryptVault(text, known, { file }, io.settings?.vaultIdMatch);
    rememberSecret(text.trim());
  }
  const password = text.trim();
  if (!password) throw new InputError('the vault password is empty', { pos: { file } });
  rememberSecret(password);
  return Buffer.from(password, 'utf8');
}

async function prompt(label: string, io: VaultIo): Promise<Buffer> {
  if (!io.ask)
    throw new UsageError(
      'a vault password prompt needs a terminal: use --vault-password-file or --vault-id label@FILE',
    );
  const answer = (await io.ask(label === 'default' ? 'Vault password: ' : `Vault password (${label}): `)).trim();
  if (!answer) throw new UsageError('the vault password is empty');
  rememberSecret(answer);
  return Buffer.from(answer, 'utf8');
}

function splitId(id: string, what: string): [string, string] {
  const at = id.indexOf('@');
  const [label, source] = at > 0 ? [id.slice(0, at), id.slice(at + 1)] : ['default', id];
  if (!source) throw new UsageError(`${what} ${id}: give [label@]FILE or [label@]prompt`);
  return [label, source];
}

/**
 * Every vault secret, in Ansible's order: vault_identity_list, --vault-id, --vault-password-file, the configured
 * vault_password_file, --ask-vault-pass. A source named on the command line must work; a configured one that
 * cannot be read is a warning, as in Ansible, unless no password at all could be read.
 */
export async function vaultSecrets(o: VaultOptions, io: VaultIo): Promise<VaultSecret[]> {
  const cfg = io.settings ?? { vaultIdentityList: [], vaultIdMatch: false };
  const fromEnv = io.settings ? undefined : io.env.ANSIBLE_VAULT_PASSWORD_FILE;
  const configured = cfg.vaultPasswordFile ?? fromEnv;
  const slots: Array<{ label: string; source: string; configured: boolean }> = [
    ...cfg.vaultIdentityList.map((id) => splitId(id, 'vault_identity_list entry')),
    ...list(o.vaultId).map((id) => splitId(id, '--vault-id')),
  ].map(([label, source], i) => ({ label, source, configured: i < cfg.vaultIdentityList.length }));
  for (const f of list(o.vaultPasswordFile)) slots.push({ label: 'default', source: f, configured: false });
  if (configured) slots.push({ label: 'default', source: configured, configured: true });
  if (o.askVaultPass) slots.push({ label: 'default', source: 'prompt', configured: false });
  const out: VaultSecret[] = [];
  let failed: unknown;
  for (const s of slots) {
    try {
      const password = s.source === 'prompt' ? await prompt(s.label, io) : readSource(s.source, s.label, io, out);
      out.push({ label: s.label, password });
    } catch (e) {
      if (!s.configured) throw e;
      failed = e;
      io.warn?.(`vault password for '${s.label}' not read: ${(e as Error).message} (${s.source})`);
    }
  }
  if (failed && !out.length) throw failed;
  return out;
}

/** Reads one line from a terminal without echoing it. */
export function terminalAsk(
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown },
  stderr: NodeJS.WritableStream,
) {
  if (!stdin.isTTY || !stdin.setRawMode) return undefined;
  return (question: string): Promise<string> =>
    new Promise((done) => {
      stderr.write(question);
      stdin.setRawMode!(true);
      let buf = '';
      const onData = (d: Buffer | string): void => {
        for (const ch of d.toString()) {
          if (ch === '\r' || ch === '\n' || ch === '\u0004') return finish();
          if (ch === '\u0003') {
            finish();
            process.kill(process.pid, 'SIGINT');
            return;
          }
          buf = ch === '\u007f' ? buf.slice(0, -1) : buf + ch;
        }
      };
      const finish = (): void => {
        stdin.off('data', onData);
        stdin.setRawMode!(false);
        stdin.pause();
        stderr.write('\n');
        done(buf);
      };
      stdin.on('data', onData);
      stdin.resume();
    });
}
