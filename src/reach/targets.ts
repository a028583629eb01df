/** An inventory host mapped onto what the transport and the REST client take: each sees only its own fields. */
import type { ApiTarget } from '../cluster/types.ts';
import type { SshTarget } from '../transport/types.ts';
import type { JumpPool } from '../transport/jump-pool.ts';
import type { ReachHost } from './types.ts';
import { openTunnel } from './tunnel.ts';

/** The SSH side of a host: address, login, key, host-key checks and the OpenSSH route. */
export function sshTarget(cfg: ReachHost): SshTarget {
  return {
    name: cfg.name,
    connection: cfg.connection,
    address: cfg.address,
    port: cfg.port,
    user: cfg.user,
    privateKeyFile: cfg.privateKeyFile,
    become: cfg.become,
    knownHostsFile: cfg.knownHostsFile,
    ...(cfg.knownHostsAlso ? { knownHostsAlso: cfg.knownHostsAlso } : {}),
    hostKeyChecking: cfg.hostKeyChecking,
    ...(cfg.ssh ? { ssh: cfg.ssh } : {}),
  };
}

export interface ApiTargetOptions {
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
  /** Milliseconds per request; an api_via_ssh tunnel gets as long to connect. */
  requestTimeout: number;
  /** api_via_ssh: the hosts to tunnel through, in order (default: this host). */
  tunnelHosts?: ReachHost[];
  /** The run's jump connections, which a tunnel behind a jump host shares. */
  jumps?: JumpPool;
}

/** The API side of a host: its URL, credentials and TLS settings; under api_via_ssh, the tunnel wired to SSH. */
export function apiTarget(cfg: ReachHost, o: ApiTargetOptions): ApiTarget {
  const hosts = (o.tunnelHosts ?? [cfg]).map(sshTarget);
  return {
    name: cfg.name,
    apiUrl: cfg.apiUrl,
    apiUsername: cfg.apiUsername,
    apiUrlUsername: cfg.apiUrlUsername,
    apiUrlPassword: cfg.apiUrlPassword,
    apiPasswordEnv: cfg.apiPasswordEnv,
    apiPasswordFile: cfg.apiPasswordFile,
    apiPassword: cfg.apiPassword,
    apiCaFile: cfg.apiCaFile,
    apiInsecure: cfg.apiInsecure,
    ...(cfg.apiViaSsh
      ? {
          tunnel: () =>
            openTunnel(hosts, {
              timeout: o.requestTimeout / 1000,
              ...(o.env ? { env: o.env } : {}),
              ...(o.warn ? { warn: o.warn } : {}),
              ...(o.jumps ? { jumps: o.jumps } : {}),
            }),
        }
      : {}),
  };
}
