/**
 * api_via_ssh: an HTTPS agent whose connections are channels through a tunnel the caller opens (an SSH
 * connection and its jump hosts). TLS runs end to end inside the channel, verified against the api_url name.
 */
import https from 'node:https';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import type { Tunnel } from './types.ts';

export interface TunnelOptions {
  /** Opens the tunnel; called once, when the first request needs a connection. */
  open: () => Promise<Tunnel>;
  /** TLS settings of the API: CA and verification, as without the tunnel. */
  tls: { ca?: string; rejectUnauthorized: boolean };
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
    this.tunnel ??= this.o.open();
    const tunnel = this.tunnel;
    tunnel
      .then((t) => t.forward(options.host ?? 'localhost', Number(options.port ?? 443)))
      .then((channel) => cb(null, tls.connect({ ...options, socket: channel })))
      .catch((err: Error) => cb(err));
    return undefined;
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
