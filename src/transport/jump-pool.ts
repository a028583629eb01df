/**
 * Jump hosts: one connection per hop in a pool, shared by every target behind it, with at most --jump-channels
 * channels open on it at once (more wait). Each hop is forwarded over the previous one. A pool belongs to whoever made
 * it (a run, one serve reload), never to the process: dropping it drops its connections.
 */
import type { Duplex } from 'node:stream';
import { TransportError } from '../base/errors.ts';
import { DEFAULTS } from '../base/defaults.ts';
import type { SshTarget } from './types.ts';
import { proxyCommandSocket } from './proxy-command.ts';
import { SshTransport } from './ssh.ts';

export interface RouteOptions {
  timeout: number;
  connectTimeout?: number;
  env?: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
  /** Channels at once on each jump host; without one, the table's --jump-channels default (below sshd's MaxSessions). */
  jumpChannels?: number;
}

/** How long an unused jump connection is kept, so hosts gathered one after another still share it. */
const IDLE_MS = 1500;

interface Entry {
  hop: Promise<SshTransport>;
  refs: number;
  timer?: NodeJS.Timeout;
  upstream?: () => void;
  name: string;
}

interface Held {
  hop: SshTransport;
  release(): void;
}

export interface JumpPool {
  /**
   * The stream to reach cfg over: a channel through its last jump host, or its ProxyCommand's stdio.
   * Errors name the hop: "jump Y unreachable" differs from "target X unreachable through jump Y".
   */
  open(cfg: SshTarget, o: RouteOptions): Promise<Duplex | undefined>;
  /** The most channels that were open at once on each jump connection held now (-v, tests). */
  stats(): Promise<Array<{ hop: string; peakChannels: number }>>;
  /** Dropped by its owner (a serve reload): each jump connection closes as soon as its last target lets it go. */
  retire(): void;
  /** Closes every jump connection now (the end of a run). */
  close(): Promise<void>;
}

const keyOf = (chain: readonly SshTarget[]) => chain.map((h) => `${h.user}@${h.address}:${h.port}`).join(' > ');

export function jumpPool(): JumpPool {
  const pool = new Map<string, Entry>();
  let retired = false;

  /** The shared connection to the last hop of chain, counted until release(). */
  async function acquireHop(chain: readonly SshTarget[], o: RouteOptions): Promise<Held> {
    const key = keyOf(chain);
    let e = pool.get(key);
    if (!e) {
      const entry: Entry = {
        refs: 0,
        name: chain[chain.length - 1]!.name,
        hop: Promise.resolve(null as unknown as SshTransport),
      };
      entry.hop = connectHop(chain, o, entry);
      pool.set(key, (e = entry));
    }
    const entry = e;
    entry.refs++;
    if (entry.timer) clearTimeout(entry.timer);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      if (--entry.refs > 0) return;
      if (retired) closeEntry(key, entry);
      else entry.timer = setTimeout(() => closeEntry(key, entry), IDLE_MS);
    };
    try {
      return { hop: await entry.hop, release };
    } catch (err) {
      release();
      throw err;
    }
  }

  function closeEntry(key: string, e: Entry): void {
    if (pool.get(key) === e) pool.delete(key);
    e.hop
      .then(
        (t) => t.close(),
        () => undefined,
      )
      .finally(() => e.upstream?.());
  }

  async function connectHop(chain: readonly SshTarget[], o: RouteOptions, entry: Entry): Promise<SshTransport> {
    const me = chain[chain.length - 1]!;
    let sock: Duplex | undefined;
    if (chain.length > 1) {
      const prev = await acquireHop(chain.slice(0, -1), o);
      entry.upstream = prev.release;
      sock = await prev.hop.forward(me.address, me.port).catch((err: Error) => {
        prev.release();
        throw new TransportError(
          'CONNECT',
          `jump ${me.name}`,
          `unreachable through jump ${prev.hop.host} (${err.message})`,
          { cause: err },
        );
      });
    } else if (me.ssh?.proxyCommand) {
      sock = proxyCommandSocket(me.ssh.proxyCommand, o.env ?? {});
    }
    try {
      return await SshTransport.connect(me, {
        timeout: o.timeout,
        ...(o.connectTimeout ? { connectTimeout: o.connectTimeout } : {}),
        ...(o.env ? { env: o.env } : {}),
        ...(o.warn ? { warn: o.warn } : {}),
        maxChannels: o.jumpChannels ?? DEFAULTS.jumpChannels,
        ...(sock ? { sock } : {}),
      });
    } catch (err) {
      // kept failed while targets wait on it, so a refused hop is not retried by each of them
      entry.upstream?.();
      entry.upstream = undefined;
      throw err;
    }
  }

  return {
    async open(cfg, o) {
      const jumps = cfg.ssh?.jumps ?? [];
      if (!jumps.length)
        return cfg.ssh?.proxyCommand ? proxyCommandSocket(cfg.ssh.proxyCommand, o.env ?? {}) : undefined;
      const last = jumps[jumps.length - 1]!;
      let held: Held;
      try {
        held = await acquireHop(jumps, o);
      } catch (err) {
        const e = err as TransportError;
        const inner = e.message;
        const code = (e.code as 'CONNECT' | 'AUTH' | 'HOST_KEY' | 'TIMEOUT') ?? 'CONNECT';
        const what = code === 'HOST_KEY' ? `jump ${last.name} refused` : `jump ${last.name} unreachable`;
        throw new TransportError(code, cfg.name, `${what}: ${inner.replace(/^jump /, '')}`, { cause: err });
      }
      try {
        const ch = await held.hop.forward(cfg.address, cfg.port);
        ch.once('close', held.release);
        return ch;
      } catch (err) {
        held.release();
        throw new TransportError(
          'CONNECT',
          cfg.name,
          `target ${cfg.name} (${cfg.address}:${cfg.port}) unreachable through jump ${last.name}: ${(err as Error).message}`,
          { cause: err },
        );
      }
    },
    async stats() {
      const out = [];
      for (const [hop, e] of pool) {
        const t = await e.hop.catch(() => null);
        if (t) out.push({ hop, peakChannels: t.peakChannels });
      }
      return out;
    },
    retire() {
      retired = true;
      for (const [key, e] of pool)
        if (e.refs === 0) {
          if (e.timer) clearTimeout(e.timer);
          closeEntry(key, e);
        }
    },
    async close() {
      const entries = [...pool.entries()];
      pool.clear();
      await Promise.all(
        entries.map(async ([, e]) => {
          if (e.timer) clearTimeout(e.timer);
          const t = await e.hop.catch(() => null);
          await t?.close();
        }),
      );
    },
  };
}
