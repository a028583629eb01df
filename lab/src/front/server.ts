/** The front's listeners: per host an SSH address (one `sshd -i` per connection) and an API address (to the daemon). */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import type { FrontConfig, FrontHost } from './config.ts';
import { readRtt } from './config.ts';
import { link, type LinkStats } from './delay.ts';

export interface LinkRecord extends LinkStats {
  kind: 'ssh' | 'api';
  host: string;
  rtt: number;
}

export interface FrontServer {
  /** sshd -i processes running now. */
  children: Set<ChildProcess>;
  /**
   * Holds exactly these hosts down, as a host that went away: their listeners closed (a new connection is refused)
   * and their open connections cut; a host no longer named listens again.
   */
  setDown(names: ReadonlySet<string>): Promise<void>;
  close(): Promise<void>;
}

/** `sshd -i` for one connection, as that host's sshd: its config holds its host key, keys and SetEnv. */
function sshdFor(cfg: FrontConfig, h: FrontHost, logFd: number, children: Set<ChildProcess>): Duplex {
  const child = spawn(cfg.sshd, ['-i', '-e', '-f', h.sshdConfig], { stdio: ['pipe', 'pipe', logFd] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  child.once('error', () => children.delete(child));
  const d = Duplex.from({ readable: child.stdout!, writable: child.stdin! });
  d.once('close', () => {
    // the client went away: sshd sees its end of the pipe close and exits by itself; this is the backstop
    setTimeout(() => child.exitCode === null && child.signalCode === null && child.kill('SIGTERM'), 5000).unref();
  });
  return d;
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, exclusive: true, backlog: 1024 }, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
}

export async function startFrontServer(
  cfg: FrontConfig,
  logFd: number,
  onLink: (r: LinkRecord) => void,
): Promise<FrontServer> {
  const children = new Set<ChildProcess>();
  /** Open connections and the host each came to. */
  const sockets = new Map<Socket, string>();
  /** Each host's listeners while it is up. */
  const up = new Map<string, Server[]>();
  const accept = (kind: 'ssh' | 'api', h: FrontHost, open: () => Duplex) => (sock: Socket) => {
    sockets.set(sock, h.name);
    sock.once('close', () => sockets.delete(sock));
    sock.setNoDelay(true);
    const rtt = readRtt(cfg.rttFile);
    void link(sock, open, rtt).then((s) => onLink({ kind, host: h.name, rtt, ...s }));
  };
  const open = async (h: FrontHost): Promise<void> => {
    const servers: Server[] = [];
    up.set(h.name, servers);
    const ssh = createServer(accept('ssh', h, () => sshdFor(cfg, h, logFd, children)));
    servers.push(ssh);
    await listen(ssh, h.ip, h.sshPort);
    if (h.api) {
      const port = h.api.upstreamPort;
      const api = createServer(accept('api', h, () => connect({ host: h.ip, port }).setNoDelay(true)));
      servers.push(api);
      await listen(api, h.ip, h.api.port);
    }
  };
  // close() waits for open connections: they are cut first
  const shut = (servers: Server[], cut: (host: string) => boolean): Promise<unknown> => {
    const closing = servers.map((s) => new Promise((r) => s.close(r)));
    for (const [sock, host] of sockets) if (cut(host)) sock.destroy();
    return Promise.all(closing);
  };
  try {
    for (const h of cfg.hosts) await open(h);
  } catch (err) {
    for (const servers of up.values()) for (const s of servers) s.close();
    throw err;
  }
  return {
    children,
    async setDown(names) {
      for (const h of cfg.hosts) {
        const servers = up.get(h.name);
        if (names.has(h.name) && servers) {
          up.delete(h.name);
          await shut(servers, (host) => host === h.name);
        } else if (!names.has(h.name) && !servers) await open(h);
      }
    },
    async close() {
      const closing = shut([...up.values()].flat(), () => true);
      await stopChildren(children);
      await closing;
    },
  };
}

/** SIGTERM to every sshd -i (its monitor passes it on to the session), SIGKILL to what is left after 3 s. */
async function stopChildren(children: Set<ChildProcess>): Promise<void> {
  const all = [...children];
  const gone = all.map(
    (c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r))),
  );
  for (const c of all) c.kill('SIGTERM');
  const late = setTimeout(() => all.forEach((c) => c.kill('SIGKILL')), 3000);
  await Promise.all(gone);
  clearTimeout(late);
}
