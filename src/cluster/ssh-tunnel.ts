/**
 * api_via_ssh: an HTTPS agent whose connections are channels through a tunnel the caller opens (an SSH
 * connection and its jump hosts). TLS runs end to end inside the channel, verified against the api_url name.
 */
import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import type { Tunnel } from './types.ts';

/** A dropped tunnel is opened again at most this many times per connection. */
export const REOPEN_ATTEMPTS = 3;

export interface TunnelOptions {
  /** Opens the tunnel: when the first request needs a connection, and again after its SSH session dropped. */
  open: () => Promise<Tunnel>;
  /** TLS settings of the API: CA and verification, as without the tunnel. */
  tls: { secureContext?: tls.SecureContext; rejectUnauthorized: boolean };
}

export class SshTunnelAgent extends https.Agent {
  private tunnel: Promise<Tunnel> | null = null;
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
    this.channel(options.host ?? 'localhost', Number(options.port ?? 443)).then(
      (channel) => cb(null, tls.connect({ ...options, socket: channel })),
      (err: Error) => cb(err),
    );
    return undefined;
  }

  /**
   * A channel through the tunnel. A tunnel whose SSH session dropped is closed and opened again (the same hosts, jump
   * hosts and host-key checks), a bounded number of times; a tunnel that never opened is not retried.
   */
  private async channel(host: string, port: number): Promise<Duplex> {
    let last: unknown;
    for (let attempt = 0; attempt < REOPEN_ATTEMPTS; attempt++) {
      const current = (this.tunnel ??= this.o.open());
      let t: Tunnel;
      try {
        t = await current;
      } catch (err) {
        if (this.tunnel === current) this.tunnel = null;
        if (attempt === 0) throw err;
        last = err;
        continue;
      }
      try {
        return await t.forward(host, port);
      } catch (err) {
        last = err;
        // another request may have reopened it already: only the dead one is dropped
        if (this.tunnel === current) {
          this.tunnel = null;
          t.close().catch(() => undefined);
        }
      }
    }
    throw last;
  }

  override destroy(): void {
    super.destroy();
    this.tunnel?.then(
      (t) => t.close(),
      () => undefined,
    );
    this.tunnel = null;
  }
}
