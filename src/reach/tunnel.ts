/** api_via_ssh wired: the REST client's tunnel is an SSH connection to the first candidate host that answers. */
import { ApiError } from '../base/errors.ts';
import type { Tunnel } from '../cluster/types.ts';
import { connectTransport } from '../transport/connect.ts';
import { SshTransport } from '../transport/ssh.ts';
import type { SshTarget } from '../transport/types.ts';
import type { JumpPool } from '../transport/jump-pool.ts';

export interface TunnelOpenOptions {
  /** Seconds per connection attempt and command. */
  timeout: number;
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
  /** The run's jump connections. */
  jumps?: JumpPool;
}

/** The first candidate that answers, tried in order; reasons of the others for the error. */
export async function openTunnel(hosts: SshTarget[], o: TunnelOpenOptions): Promise<Tunnel> {
  const why: string[] = [];
  for (const cfg of hosts) {
    try {
      const t = await connectTransport(cfg, {
        timeout: o.timeout,
        ...(o.env ? { env: o.env } : {}),
        ...(o.warn ? { warn: o.warn } : {}),
        ...(o.jumps ? { jumps: o.jumps } : {}),
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
