/** Vault passwords as ansible takes them: --vault-password-file, --vault-id [label@]source, --ask-vault-pass, ANSIBLE_VAULT_PASSWORD_FILE. */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { basename, resolve } from 'node:path';
import { InputError, UsageError } from '../errors.ts';
import { rememberSecret } from '../secrets.ts';
import type { VaultSecret } from './vault.ts';

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

/** A password file's content, or what an executable one prints (a `*-client` script is told the vault id). */
function readSource(source: string, label: string, io: VaultIo): Buffer {
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

/** Every vault secret the options name, in the order given. */
export async function vaultSecrets(o: VaultOptions, io: VaultIo): Promise<VaultSecret[]> {
  const out: VaultSecret[] = [];
  for (const id of list(o.vaultId)) {
    const at = id.indexOf('@');
    const [label, source] = at > 0 ? [id.slice(0, at), id.slice(at + 1)] : ['default', id];
    if (!source) throw new UsageError(`--vault-id ${id}: give [label@]FILE or [label@]prompt`);
    out.push({ label, password: source === 'prompt' ? await prompt(label, io) : readSource(source, label, io) });
  }
  for (const f of list(o.vaultPasswordFile)) out.push({ label: 'default', password: readSource(f, 'default', io) });
  if (o.askVaultPass) out.push({ label: 'default', password: await prompt('default', io) });
  const envFile = io.env.ANSIBLE_VAULT_PASSWORD_FILE;
  if (envFile && !out.length) out.push({ label: 'default', password: readSource(envFile, 'default', io) });
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
