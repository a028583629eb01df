/** One ssh2 connection per host, reused: every command and file is a channel on the same Client. */
import { CappedBuffer, maxOutputBytes, mib } from '../base/limits.ts';
import { closedReason } from './proxy-command.ts';
import { connect as tcpConnect } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  Client,
  type AuthMethod,
  type ClientChannel,
  type ConnectConfig,
  type KexAlgorithm,
  type ServerHostKeyAlgorithm,
} from 'ssh2';
import { TransportError } from '../base/errors.ts';
import type { PathStat, SshTarget } from './types.ts';
import { SftpSession, SftpUnavailable } from './sftp-stat.ts';
import { authConfig } from './ssh-auth.ts';
import { knownKeyTypes, preferredHostKeyAlgorithms, verifyHostKey } from './host-key.ts';
import { ShellTransport, type RawResult } from './shell.ts';

export interface SshOptions {
  /** Seconds per command. */
  timeout: number;
  /** Seconds for connect, handshake and authentication. */
  connectTimeout?: number;
  /** The environment the CLI read (SSH_AUTH_SOCK, SMDOCTOR_MAX_FILE_MIB): none when left out. */
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
  /** Channels open at once on the connection (sshd MaxSessions defaults to 10). */
  maxChannels?: number;
  /** The stream to speak SSH over instead of a TCP connection: a jump host's channel, a ProxyCommand's stdio. */
  sock?: Duplex;
}

/** curve25519 first: ssh2's other key exchanges cost far more client CPU per handshake; the rest are fallbacks. */
export const KEX_PREFERENCE: KexAlgorithm[] = [
  'curve25519-sha256',
  'curve25519-sha256@libssh.org',
  'ecdh-sha2-nistp256',
  'ecdh-sha2-nistp384',
  'ecdh-sha2-nistp521',
  'diffie-hellman-group-exchange-sha256',
  'diffie-hellman-group14-sha256',
  'diffie-hellman-group16-sha512',
  'diffie-hellman-group18-sha512',
];

/** Where host keys are looked up: HostKeyAlias replaces name and port, as in OpenSSH. */
function keyIdentity(cfg: SshTarget): SshTarget {
  return cfg.ssh?.hostKeyAlias ? { ...cfg, address: cfg.ssh.hostKeyAlias, port: 22 } : cfg;
}

/** How long a timed-out channel may keep its slot while the server confirms the close. */
const CLOSE_GRACE_MS = 5000;

export class SshTransport extends ShellTransport {
  protected override readonly hostDeadline = true;
  private readonly client: Client;
  private lost: TransportError | null = null;
  private readonly pending = new Set<(err: TransportError) => void>();
  private readonly maxChannels: number;
  /** Bytes of one command's output kept (SMDOCTOR_MAX_FILE_MIB × 4). */
  private readonly maxOutput: number;
  private active = 0;
  /** The most channels that were open at once. */
  peakChannels = 0;
  private readonly waiting: Array<() => void> = [];
  /** The connection's one SFTP session, opened at the first stat and kept (it holds one channel slot). */
  private sftp: Promise<SftpSession> | null = null;

  private constructor(cfg: SshTarget, client: Client, opts: SshOptions) {
    super(cfg, opts.timeout);
    this.client = client;
    this.maxChannels = opts.maxChannels ?? 8;
    this.maxOutput = maxOutputBytes(opts.env ?? {});
    const drop = (why: string) => {
      this.lost ??= new TransportError('CONNECT', cfg.name, `connection to ${cfg.address}:${cfg.port} lost (${why})`);
      for (const fail of this.pending) fail(this.lost);
      // Commands queued for a slot wake to the lost connection instead of waiting on channels that will not close.
      for (const wake of this.waiting.splice(0)) wake();
    };
    client.on('error', (err: Error & { code?: string }) => drop(err.code ?? err.message));
    client.on('close', () => drop('closed'));
  }

  static async connect(cfg: SshTarget, opts: SshOptions): Promise<SshTransport> {
    const env = opts.env ?? {};
    const auth = await authConfig(cfg, env);
    const client = new Client();
    let hostKeyError: TransportError | null = null;
    const where = `${cfg.address}:${cfg.port}`;
    const connectTimeout = cfg.ssh?.connectTimeout ?? opts.connectTimeout ?? 10;
    const config: ConnectConfig = {
      host: cfg.address,
      port: cfg.port,
      username: cfg.user,
      privateKey: auth.privateKey,
      passphrase: auth.passphrase,
      agent: auth.agent,
      // always a list: without one, ssh2 first asks for the "none" method, a round trip that lists what we already know
      authHandler: authMethods(cfg.user, auth),
      readyTimeout: connectTimeout * 1000,
      keepaliveInterval: (cfg.ssh?.serverAliveInterval ?? 15) * 1000,
      algorithms: {
        ...(KEX_PREFERENCE.length ? { kex: [...KEX_PREFERENCE] } : {}),
        serverHostKey: preferredHostKeyAlgorithms(await knownKeyTypes(keyIdentity(cfg))) as ServerHostKeyAlgorithm[],
      },
      hostVerifier: (key: Buffer, verify: (ok: boolean) => void) => {
        verifyHostKey(keyIdentity(cfg), key, opts.warn).then(
          () => verify(true),
          (err: unknown) => {
            hostKeyError =
              err instanceof TransportError
                ? err
                : new TransportError('HOST_KEY', cfg.name, `cannot check the host key of ${where}: ${String(err)}`, {
                    cause: err,
                  });
            verify(false);
          },
        );
      },
    };
    // the socket is ours, opened before ssh2 takes it (ssh2 waits for its 'connect')
    const stream = opts.sock ?? tcpConnect({ host: cfg.address, port: cfg.port }).setMaxListeners(0);
    config.sock = stream;
    await new Promise<void>((resolve, reject) => {
      const onError = (err: Error & { level?: string; code?: string }) => {
        client.removeListener('ready', onReady);
        client.on('error', () => undefined); // late socket errors of a failed attempt are not news
        client.end();
        if (hostKeyError) return reject(hostKeyError);
        if (err.level === 'client-authentication') {
          return reject(
            new TransportError(
              'AUTH',
              cfg.name,
              `authentication as ${cfg.user} at ${where} failed (tried ${auth.sources.join(', ')})`,
              { cause: err },
            ),
          );
        }
        const why =
          err.level === 'client-timeout' ? `no SSH handshake within ${connectTimeout}s` : (err.code ?? err.message);
        reject(new TransportError('CONNECT', cfg.name, `cannot connect to ${where}: ${why}`, { cause: err }));
      };
      const onReady = () => {
        client.removeListener('error', onError);
        resolve();
      };
      client.once('error', onError);
      client.once('ready', onReady);
      // a route that ends before the handshake (its ProxyCommand exited) fails now, with its reason, not at the timeout
      const sock = opts.sock;
      const routeEnded = (): void => {
        client.removeListener('error', onError);
        onError(closedReason(sock!) ?? new Error('the route to the host closed before the SSH handshake'));
      };
      if (sock?.destroyed) return routeEnded();
      sock?.once('close', routeEnded);
      client.once('ready', () => sock?.removeListener('close', routeEnded));
      client.connect(config);
    });
    return new SshTransport(cfg, client, opts);
  }

  protected async run(command: string, stdin: Buffer | undefined, timeout: number): Promise<RawResult> {
    if (this.lost) throw this.lost;
    await this.acquire();
    return this.runChannel(command, stdin, timeout);
  }

  /** The slot is given back when the server closes the channel, not when we stop waiting: sshd counts it until then. */
  private runChannel(command: string, stdin: Buffer | undefined, timeout: number): Promise<RawResult> {
    let released = false;
    const release = () => {
      if (!released) {
        released = true;
        this.release();
      }
    };
    return new Promise<RawResult>((resolve, reject) => {
      let channel: ClientChannel | undefined;
      let timer: NodeJS.Timeout | undefined;
      const finish = (fn: () => void) => {
        if (timer) clearTimeout(timer);
        this.pending.delete(fail);
        fn();
      };
      const fail = (err: TransportError) => finish(() => reject(err));
      this.pending.add(fail);
      if (timeout > 0) {
        timer = setTimeout(() => {
          // Kill what runs, then drop the channel; the connection stays usable.
          try {
            if (channel) killChannel(channel);
          } catch {
            /* channel already gone */
          }
          try {
            channel?.close();
          } catch {
            /* idem */
          }
          // A server that never confirms the close must not hold the slot for good.
          setTimeout(release, CLOSE_GRACE_MS).unref();
          fail(
            new TransportError(
              'TIMEOUT',
              this.host,
              `command did not finish within ${timeout}s on ${this.cfg.address}`,
            ),
          );
        }, timeout * 1000);
      }
      this.client.exec(command, (err, ch) => {
        if (err) {
          release();
          return fail(
            new TransportError('CONNECT', this.host, `cannot open a channel to ${this.cfg.address}: ${err.message}`, {
              cause: err,
            }),
          );
        }
        ch.once('close', release);
        if (!this.pending.has(fail)) return void ch.close();
        channel = ch;
        // a host that sends without end must not take this machine's memory: stop it at the limit
        const out = new CappedBuffer(this.maxOutput);
        const errs: Buffer[] = [];
        let code: number | null = null;
        let signal: string | undefined;
        let stopped = false;
        ch.on('data', (d: Buffer) => {
          if (out.push(d) || stopped) return;
          stopped = true;
          try {
            killChannel(ch);
            ch.close();
          } catch {
            /* already gone */
          }
        });
        ch.stderr.on('data', (d: Buffer) => errs.push(d));
        ch.on('exit', (c: number | null, sig?: string) => {
          code = c;
          signal = sig;
        });
        ch.on('close', () => {
          if (!this.pending.has(fail)) return;
          // A signal death has no code: report it as the shell would (128 + n is unknown here, so 255).
          const stderr = Buffer.concat(errs);
          const extra = stopped
            ? Buffer.from(`\n(output stopped at ${mib(this.maxOutput)}: too large to audit)`)
            : code === null && signal
              ? Buffer.from(`\n(killed by signal ${signal})`)
              : Buffer.alloc(0);
          finish(() =>
            resolve({
              code: stopped ? 255 : (code ?? 255),
              stdout: out.concat(),
              stderr: Buffer.concat([stderr, extra]),
            }),
          );
        });
        ch.end(stdin);
      });
    });
  }

  async statPaths(
    paths: readonly string[],
    timeout: number,
    follow?: ReadonlySet<string>,
  ): Promise<Array<[PathStat, PathStat]>> {
    if (this.lost) throw this.lost;
    const late = () =>
      new TransportError('TIMEOUT', this.host, `SFTP stats did not finish within ${timeout}s on ${this.cfg.address}`);
    const opening = this.openSftp(timeout);
    // an SFTP server that does not start in time is given up on for this connection (said once, read in full)
    const sftp = await withTimeout(
      opening,
      timeout,
      () => new SftpUnavailable(`SFTP did not start within ${timeout}s on ${this.cfg.address}`),
    ).catch((err: unknown) => {
      if (this.sftp === opening && err instanceof SftpUnavailable) {
        this.sftp = Promise.reject(err);
        this.sftp.catch(() => undefined);
      }
      throw err;
    });
    // a batch that outlasts the timeout ends its session: its late answers are not waited for, the next stat reopens
    return withTimeout(sftp.stat(paths, follow), timeout, late).catch((err: unknown) => {
      sftp.close();
      throw err;
    });
  }

  private openSftp(timeout: number): Promise<SftpSession> {
    if (this.sftp) return this.sftp;
    const opened = (async () => {
      await this.acquire();
      const channel = await new Promise<ClientChannel>((resolve, reject) => {
        this.client.subsys('sftp', (err, ch) => {
          if (err) {
            this.release();
            // refused for good on this connection: a subsystem the server does not offer stays unoffered
            return reject(new SftpUnavailable(`SFTP is not available on ${this.cfg.address}: ${err.message}`));
          }
          resolve(ch);
        });
      });
      // a session the server (or a broken reply) ended is opened again at the next stat
      channel.once('close', () => {
        this.release();
        if (this.sftp === opened) this.sftp = null;
      });
      return SftpSession.open(channel, timeout * 1000).catch((err: unknown) => {
        channel.destroy();
        throw err instanceof SftpUnavailable
          ? new SftpUnavailable(`SFTP is not available on ${this.cfg.address}: ${err.message}`)
          : err;
      });
    })();
    this.sftp = opened;
    return opened;
  }

  /** A direct-tcpip channel to host:port through this server, counted against maxChannels until it closes. */
  async forward(host: string, port: number): Promise<ClientChannel> {
    if (this.lost) throw this.lost;
    await this.acquire();
    return new Promise<ClientChannel>((resolve, reject) => {
      this.client.forwardOut('127.0.0.1', 0, host, port, (err, ch) => {
        if (err) {
          this.release();
          return reject(err);
        }
        let open = true;
        ch.once('close', () => {
          if (open) {
            open = false;
            this.release();
          }
        });
        resolve(ch);
      });
    });
  }

  private async acquire(): Promise<void> {
    if (this.active < this.maxChannels) {
      this.active++;
      this.peakChannels = Math.max(this.peakChannels, this.active);
      return;
    }
    await new Promise<void>((r) => this.waiting.push(r));
    if (this.lost) throw this.lost;
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  async close(): Promise<void> {
    if (this.lost) return;
    await new Promise<void>((resolve) => {
      this.client.once('close', () => resolve());
      this.client.end();
      setTimeout(resolve, 2000).unref();
    });
  }
}

/** `p`, or `late()` if it has not settled within `seconds` (p goes on; its rejection is handled). */
function withTimeout<T>(p: Promise<T>, seconds: number, late: () => Error): Promise<T> {
  p.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), seconds * 1000);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/**
 * Agent first (when allowed), then each key: OpenSSH's order for IdentityFile. Without IdentityFile lines, the key
 * file (given or default) and then the agent: ssh2's own order, less its opening "none".
 */
function authMethods(
  username: string,
  auth: {
    agent?: string;
    privateKey?: Buffer;
    passphrase?: string;
    keys?: Array<{ key: Buffer; passphrase?: string }>;
  },
): AuthMethod[] {
  if (!auth.keys) {
    const key = auth.privateKey;
    const agent = auth.agent ? [{ type: 'agent' as const, username, agent: auth.agent }] : [];
    if (!key) return agent;
    const pass = auth.passphrase ? { passphrase: auth.passphrase } : {};
    return [{ type: 'publickey', username, key, ...pass }, ...agent] as AuthMethod[];
  }
  return [
    ...(auth.agent ? [{ type: 'agent', username, agent: auth.agent }] : []),
    ...(auth.keys ?? []).map((k) => ({
      type: 'publickey',
      username,
      key: k.key,
      ...(k.passphrase ? { passphrase: k.passphrase } : {}),
    })),
  ] as AuthMethod[];
}

interface ChannelInternals {
  outgoing?: { id: number; state: string };
  _client?: { _protocol?: { signal(id: number, name: string): void } };
}

/**
 * Sends the "signal" channel request (sshd killpg()s the command). ssh2's channel.signal() refuses
 * once stdin is ended, which every command's is, so this goes one level down, to the same protocol call.
 */
function killChannel(channel: ClientChannel): void {
  const c = channel as unknown as ChannelInternals;
  const proto = c._client?._protocol;
  if ((c.outgoing?.state === 'open' || c.outgoing?.state === 'eof') && proto) proto.signal(c.outgoing.id, 'KILL');
  else channel.signal('KILL');
}
