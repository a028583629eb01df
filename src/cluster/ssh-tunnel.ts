/**
 * api_via_ssh: an HTTPS agent whose connections are direct-tcpip channels through an SSH connection
 * (and its jump hosts). TLS runs end to end inside the channel, verified against the api_url name.
 */
import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { ApiError } from '../errors.ts';
import type { HostConfig } from '../inventory/types.ts';
import { connectTransport } from '../transport/index.ts';
import { SshTransport } from '../transport/ssh.ts';

export interface TunnelOptions {
  /** Candidates in order: the first that connects carries the API. */
  hosts: HostConfig[];
  timeout: number;
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
  /** TLS settings of the API: CA and verification, as without the tunnel. */
  tls: { ca?: string; rejectUnauthorized: boolean };
}

/** The first candidate that answers, tried in order; reasons of the others for the error. */
async function firstReachable(o: TunnelOptions): Promise<SshTransport> {
  const why: string[] = [];
  for (const cfg of o.hosts) {
    try {
      const t = await connectTransport(cfg, {
        timeout: o.timeout,
        ...(o.env ? { env: o.env } : {}),
        ...(o.warn ? { warn: o.warn } : {}),
      });
      if (t instanceof SshTransport) return t;
      await t.close();
      why.push(`${cfg.name}: not an SSH host`);
    } catch (err) {
      why.push((err as Error).message);
    }
  }
  throw new ApiError(`api_via_ssh: no host to tunnel the API through (${why.join('; ')})`);
}

export class SshTunnelAgent extends https.Agent {
  private ssh: Promise<SshTransport> | null = null;
  private readonly o: TunnelOptions;

  constructor(o: TunnelOptions) {
    // a few channels reused for every request: behind a jump host each one counts against --jump-channels
    super({ keepAlive: true, maxSockets: 4, ...o.tls });
    this.o = o;
  }

  /** Node's Agent takes the socket from the callback; the host and port are the api_url's own. */
  override createConnection(
    options: tls.ConnectionOptions & { host?: string; port?: number },
    cb: (err: Error | null, s?: Duplex) => void,
  ): undefined {
    this.ssh ??= firstReachable(this.o);
    const ssh = this.ssh;
    ssh
      .then((t) => t.forward(options.host ?? 'localhost', Number(options.port ?? 443)))
      .then((channel) => cb(null, tls.connect({ ...options, socket: channel })))
      .catch((err: Error) => cb(err));
    return undefined;
  }

  override destroy(): void {
    super.destroy();
    this.ssh?.then(
      (t) => t.close(),
      () => undefined,
    );
    this.ssh = null;
  }
}
