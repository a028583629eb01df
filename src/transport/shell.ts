/** What SSH and local transports share: sudo rules, readFile and the atomic write, on top of a raw runner. */
import { TransportError } from '../base/errors.ts';
import type { ExecOptions, ExecResult, FileOptions, SshTarget, Transport, WriteResult } from './types.ts';
import {
  HAS_SUDO_COMMAND,
  parseMarked,
  planCommand,
  readFileScript,
  sudoProbeCommand,
  withDeadline,
  writeFileScript,
} from './command.ts';

export interface RawResult {
  code: number;
  stdout: Buffer;
  stderr: Buffer;
}

export abstract class ShellTransport implements Transport {
  readonly host: string;
  protected readonly cfg: SshTarget;
  protected readonly defaultTimeout: number;
  /** Whether commands need a host-side deadline (the SSH transport cannot always kill them). */
  protected readonly hostDeadline: boolean = false;
  private hasSudo?: Promise<boolean>;
  private readonly sudoOk = new Map<string, Promise<void>>();

  constructor(cfg: SshTarget, defaultTimeout: number) {
    this.host = cfg.name;
    this.cfg = cfg;
    this.defaultTimeout = defaultTimeout;
  }

  /** Runs one shell command line; rejects only on transport trouble or timeout (seconds). */
  protected abstract run(command: string, stdin: Buffer | undefined, timeout: number): Promise<RawResult>;
  abstract close(): Promise<void>;

  async exec(command: string, opts: ExecOptions = {}): Promise<ExecResult> {
    const raw = await this.runPlanned(
      command,
      opts,
      opts.stdin === undefined ? undefined : Buffer.from(opts.stdin, 'utf8'),
    );
    const enc = opts.binary ? 'latin1' : 'utf8';
    return { code: raw.code, stdout: raw.stdout.toString(enc), stderr: raw.stderr.toString('utf8') };
  }

  async readFile(path: string, opts: FileOptions = {}): Promise<string | null> {
    const raw = await this.runPlanned(readFileScript(path), opts, undefined);
    const out = raw.code === 0 ? parseMarked(raw.stdout, opts.binary) : undefined;
    if (!out) throw this.remote(`cannot read ${path}`, raw);
    return out.content;
  }

  async writeFileAtomic(path: string, content: string, opts: FileOptions = {}): Promise<WriteResult> {
    const raw = await this.runPlanned(
      writeFileScript(path),
      opts,
      Buffer.from(content, opts.binary ? 'latin1' : 'utf8'),
    );
    const out = raw.code === 0 ? parseMarked(raw.stdout, opts.binary) : undefined;
    if (!out) throw this.remote(`cannot write ${path} (left unchanged)`, raw);
    return { backup: out.content };
  }

  private async runPlanned(command: string, opts: ExecOptions, stdin: Buffer | undefined): Promise<RawResult> {
    const timeout = opts.timeout ?? this.defaultTimeout;
    const plan = planCommand(this.hostDeadline ? withDeadline(command, timeout) : command, opts, this.cfg);
    if (plan.sudoUser !== null) await this.ensureSudo(plan.sudoUser, timeout);
    return this.run(plan.command, stdin, timeout);
  }

  /** Probed once per connection and target user, so failures are named instead of guessed from stderr. */
  private async ensureSudo(user: string, timeout: number): Promise<void> {
    this.hasSudo ??= this.run(HAS_SUDO_COMMAND, undefined, timeout).then(
      (r) => r.code === 0,
      (err: unknown) => {
        this.hasSudo = undefined; // a timed-out probe is retried next time
        throw err;
      },
    );
    if (!(await this.hasSudo)) {
      const why = this.cfg.become ? 'ansible_become is set' : `commands must run as ${user}`;
      throw new TransportError('REMOTE', this.host, `${why} but sudo is not installed on ${this.cfg.address}`);
    }
    let ok = this.sudoOk.get(user);
    if (!ok) {
      ok = this.run(sudoProbeCommand(user), undefined, timeout).then((r) => {
        if (r.code !== 0) {
          const err = r.stderr.toString('utf8').trim();
          throw new TransportError(
            'REMOTE',
            this.host,
            `sudo -n needs passwordless sudo for ${this.cfg.user} (to run as ${user})${err ? `: ${err}` : ''}`,
          );
        }
      });
      this.sudoOk.set(user, ok);
    }
    await ok;
  }

  private remote(what: string, raw: RawResult): TransportError {
    const err = raw.stderr.toString('utf8').trim();
    return new TransportError('REMOTE', this.host, `${what}: exit ${raw.code}${err ? `: ${err}` : ''}`);
  }
}
