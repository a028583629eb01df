import type { HostConfig } from '../inventory/types.ts';
import type { SshRoute } from '../transport/types.ts';

/** An inventory host with the OpenSSH route that reaches it, once its configuration is resolved (see host.ts). */
export type ReachHost = HostConfig & { ssh?: SshRoute };
