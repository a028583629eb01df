/** N real sshd on their own loopback addresses, one client key, one known_hosts: for transport and lab tests. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { HostConfig } from '../../src/inventory/types.ts';
import { hostConfigOf } from './host-config.ts';
import { allocateLoopback } from '../../lab/src/net.ts';
import { generateKey, startSshd, stopPid, type KeyPair, type SshdHandle } from '../../lab/src/sshd.ts';

export interface Fleet {
  servers: SshdHandle[];
  clientKey: KeyPair;
  knownHostsFile: string;
  dir: string;
  /** A HostConfig for server i, with every field defaulted as the inventory would. */
  config(i: number, overrides?: Partial<HostConfig>): HostConfig;
}

export interface FleetOptions {
  port?: number;
  /** Defaults to a fresh temp dir, removed at teardown. */
  dir?: string;
  setEnv?: Record<string, string>;
  /** sshd's LogLevel (DEBUG1 logs each authentication request with its method). */
  logLevel?: string;
  /** The `sftp` subsystem's command (default internal-sftp); null: none. */
  sftp?: string | null;
}

interface Teardown {
  teardown(fn: () => unknown): void;
}

export async function startSshdFleet(t: Teardown, n: number, opts: FleetOptions = {}): Promise<Fleet> {
  const port = opts.port ?? 2222;
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'smdoctor-sshd-')));
  const addrs = await allocateLoopback(n, [port]);
  const clientKey = await generateKey(join(dir, 'client_key'), 'smdoctor-test');
  const servers: SshdHandle[] = [];
  // Registered first so a failure half-way still stops what did start.
  t.teardown(async () => {
    await Promise.all(servers.map((s) => stopPid(s.pid)));
    if (!opts.dir) await rm(dir, { recursive: true, force: true });
  });
  const started = await Promise.allSettled(
    addrs.map((address, i) =>
      startSshd({
        dir: join(dir, `sshd-${i + 1}`),
        address,
        port,
        authorizedKeys: [clientKey.publicKey],
        setEnv: opts.setEnv,
        ...(opts.logLevel ? { logLevel: opts.logLevel } : {}),
        ...(opts.sftp !== undefined ? { sftp: opts.sftp } : {}),
      }).then((s) => {
        servers[i] = s;
        return s;
      }),
    ),
  );
  const failed = started.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  const knownHostsFile = join(dir, 'known_hosts');
  await writeFile(knownHostsFile, servers.map((s) => `${s.knownHostsLine}\n`).join(''), { mode: 0o600 });
  const user = userInfo().username;
  const config = (i: number, overrides: Partial<HostConfig> = {}): HostConfig => {
    const s = servers[i]!;
    return hostConfigOf(`node${i + 1}`, {
      address: s.address,
      port: s.port,
      user,
      privateKeyFile: clientKey.privatePath,
      knownHostsFile,
      apiUrl: `https://${s.address}:9200`,
      ...overrides,
    });
  };
  return { servers, clientKey, knownHostsFile, dir, config };
}
