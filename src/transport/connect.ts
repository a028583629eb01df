/** A host's transport by its connection kind: SSH (through its jump hosts or ProxyCommand) or local. */
import { LocalTransport } from './local.ts';
import { SshTransport } from './ssh.ts';
import { jumpPool, type JumpPool } from './jump-pool.ts';
import type { SshTarget, Transport } from './types.ts';
import { currentRun } from '../base/run-scope.ts';
import { unhandled } from '../base/errors.ts';

export interface ConnectOptions {
  /** Seconds per command. */
  timeout: number;
  /** Seconds to connect and authenticate; default 10. */
  connectTimeout?: number;
  /** The environment the CLI read (SSH_AUTH_SOCK, SMDOCTOR_MAX_FILE_MIB): none when left out. */
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
  /** Channels at once on each jump host (--jump-channels); default: the table's (base/defaults.ts). */
  jumpChannels?: number;
  /** The run's jump connections, shared by its hosts; without one, this connection's own (closed when unused). */
  jumps?: JumpPool;
}

/** SshTransport for connection 'ssh' (through its jump hosts or ProxyCommand), LocalTransport for 'local'. */
export async function connectTransport(cfg: SshTarget, opts: ConnectOptions): Promise<Transport> {
  switch (cfg.connection) {
    case 'local':
      return new LocalTransport(cfg, { timeout: opts.timeout, env: opts.env ?? {} });
    case 'ssh':
      return connectSsh(cfg, opts);
    default:
      return unhandled(cfg.connection, 'connection');
  }
}

async function connectSsh(cfg: SshTarget, opts: ConnectOptions): Promise<Transport> {
  // warnings of the ssh configuration, told once per run (not once per process: a library may run many)
  const { warned } = currentRun();
  for (const w of cfg.ssh?.warnings ?? [])
    if (!warned.has(w)) {
      warned.add(w);
      opts.warn?.(w);
    }
  const { jumps = jumpPool(), ...rest } = opts;
  const sock = await jumps.open(cfg, {
    ...rest,
    ...(cfg.ssh?.jumpChannels ? { jumpChannels: cfg.ssh.jumpChannels } : {}),
  });
  try {
    return await SshTransport.connect(cfg, { ...rest, ...(sock ? { sock } : {}) });
  } catch (err) {
    sock?.destroy();
    throw err;
  }
}
