/**
 * serve's connections: one SSH session per host and one REST client per cluster, kept open from cycle to cycle. The
 * audit closes what it opened when a host is done; here that close keeps the connection, and only a broken one (a
 * transport error) is dropped, to be opened again with exponential backoff and jitter. Host keys are checked by the
 * same connect as audit's: a changed key fails the connection, never replaces the key.
 */
import { systemClock } from '../base/clock.ts';
import { TransportError } from '../base/errors.ts';
import type { ClusterApi } from '../cluster/types.ts';
import type { ReachDeps, ReachHost } from '../reach/index.ts';
import type { Transport } from '../transport/types.ts';

export interface Backoff {
  /** The wait after the first failure, in ms; it doubles with each failure in a row. */
  baseMs: number;
  maxMs: number;
}

const API_FIELDS = [
  'apiUrl',
  'apiUsername',
  'apiUrlUsername',
  'apiUrlPassword',
  'apiPasswordEnv',
  'apiPasswordFile',
  'apiPassword',
  'apiCaFile',
  'apiInsecure',
] as const satisfies ReadonlyArray<keyof ReachHost>;

/**
 * Connections kept to each cluster's API: the width of a cycle's batch of reads (gather-api), so the first cycle opens
 * them all and no later one needs another; reads beyond it wait for one.
 */
const KEPT_API_SOCKETS = 10;

export const DEFAULT_BACKOFF: Backoff = { baseMs: 1000, maxMs: 5 * 60_000 };

/** How a host's connection stands between cycles: for /metrics and the logs. */
export interface HostLink {
  connected: boolean;
  failures: number;
  lastError?: string;
  /** Monotonic ms before which no new connection is tried. */
  retryAt?: number;
}

interface Held {
  /** The host's settings it was opened with: a changed host (SIGHUP) gets a new connection. */
  key: string;
  transport: Transport;
}

export interface Kept {
  /** connect and api for runAudit's deps. */
  readonly deps: Pick<ReachDeps, 'connect' | 'api'>;
  readonly links: ReadonlyMap<string, HostLink>;
  /** Closes the connections of hosts not in `hosts` (after a reload). */
  keepOnly(hosts: ReadonlySet<string>): Promise<void>;
  close(): Promise<void>;
}

/** Waits of 50–100 % of the doubled delay ("equal jitter"): hosts that failed together do not return together. */
export const backoffMs = (failures: number, b: Backoff, random: () => number): number => {
  const cap = Math.min(b.maxMs, b.baseMs * 2 ** Math.min(failures - 1, 30));
  return cap / 2 + (random() * cap) / 2;
};

/** `p`, or the error `late()` makes if `p` has not settled within `ms` (p goes on; its rejection is handled). */
function within<T>(p: Promise<T>, ms: number, late: () => Error): Promise<T> {
  p.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
    timer.unref?.();
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export function keptReach(
  base: Pick<ReachDeps, 'connect' | 'api'>,
  /** now: monotonic ms. */
  o: { backoff?: Backoff; now?: () => number; random?: () => number } = {},
): Kept {
  const backoff = o.backoff ?? DEFAULT_BACKOFF;
  const now = o.now ?? systemClock.monotonic;
  const random = o.random ?? systemClock.random;
  const held = new Map<string, Held>();
  const links = new Map<string, HostLink>();
  const apis = new Map<string, { key: string; api: ClusterApi }>();
  const opening = new Map<string, { key: string; p: Promise<Held> }>();
  let closed = false;

  const drop = (host: string, h: Held, err: unknown): void => {
    if (held.get(host) !== h) return;
    held.delete(host);
    links.set(host, { connected: false, failures: 0, lastError: (err as Error).message });
    void h.transport.close().catch(() => undefined);
  };
  // a transport error means the connection is gone: the next cycle opens another
  const guard = <T>(host: string, h: Held, p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      if (err instanceof TransportError) drop(host, h, err);
      throw err;
    });
  const handed = (host: string, h: Held): Transport => ({
    host: h.transport.host,
    exec: (c, x) => guard(host, h, h.transport.exec(c, x)),
    readFile: (p, x) => guard(host, h, h.transport.readFile(p, x)),
    writeFileAtomic: (p, c, x) => guard(host, h, h.transport.writeFileAtomic(p, c, x)),
    ...(h.transport.statPaths
      ? {
          statPaths: (p: readonly string[], s: number, f?: ReadonlySet<string>) =>
            guard(host, h, h.transport.statPaths!(p, s, f)),
        }
      : {}),
    close: () => Promise.resolve(),
  });

  const connect: ReachDeps['connect'] = async (cfg, opts) => {
    const key = JSON.stringify(cfg);
    const h = held.get(cfg.name);
    if (h && h.key === key) return handed(cfg.name, h);
    if (h) drop(cfg.name, h, new Error('host settings changed'));
    // a connection still being opened (a cycle gave up waiting for it) is waited for again, never opened twice
    const had = opening.get(cfg.name);
    const pending = had?.key === key ? had.p : undefined;
    const link = links.get(cfg.name);
    if (!pending && link?.retryAt !== undefined && now() < link.retryAt)
      throw new TransportError(
        'CONNECT',
        cfg.name,
        `not connected (next try in ${Math.ceil((link.retryAt - now()) / 1000)} s): ${link.lastError ?? 'unknown'}`,
      );
    let counted = false;
    const failed = (err: unknown): void => {
      const failures = (links.get(cfg.name)?.failures ?? 0) + (counted ? 0 : 1);
      counted = true;
      links.set(cfg.name, {
        connected: false,
        failures,
        lastError: (err as Error).message,
        retryAt: now() + backoffMs(failures, backoff, random),
      });
    };
    const p =
      pending ??
      base.connect(cfg, opts).then(
        (transport): Held => {
          const mine = opening.get(cfg.name)?.p === p;
          if (mine) opening.delete(cfg.name);
          // a connection that came after its cycle gave up on it is kept for the next one, unless serve moved on
          if (closed || !mine || held.has(cfg.name)) {
            void transport.close().catch(() => undefined);
            throw new TransportError('CONNECT', cfg.name, 'opened too late: closed');
          }
          const fresh: Held = { key, transport };
          held.set(cfg.name, fresh);
          links.set(cfg.name, { connected: true, failures: 0 });
          return fresh;
        },
        (err: unknown) => {
          if (opening.get(cfg.name)?.p === p) opening.delete(cfg.name);
          failed(err);
          throw err;
        },
      );
    if (!pending) opening.set(cfg.name, { key, p });
    // a cycle waits for a connection no longer than --timeout (the handshake's own limit is longer, 10 s): a stopped
    // host holds its cycle no longer than a slow command does; the handshake goes on for a later cycle
    const fresh = await within(p, opts.timeout * 1000, () => {
      const late = new TransportError('CONNECT', cfg.name, `no connection within ${opts.timeout} s (--timeout)`);
      failed(late);
      return late;
    });
    return handed(cfg.name, fresh);
  };

  const api: ReachDeps['api'] = (cfg: ReachHost, opts) => {
    // the client depends on how the API is reached, not on which of the cluster's hosts asked first
    const key = JSON.stringify([
      ...API_FIELDS.map((f) => cfg[f]),
      cfg.apiViaSsh,
      cfg.apiViaSsh ? cfg.name : null,
      opts.tunnelHosts?.map((h) => h.name),
    ]);
    const had = apis.get(cfg.apiUrl);
    if (had && had.key === key)
      return { url: had.api.url, request: (r) => had.api.request(r), close: () => Promise.resolve() };
    if (had) void had.api.close().catch(() => undefined);
    const made = base.api(cfg, { ...opts, maxSockets: KEPT_API_SOCKETS, keepAnswers: true });
    apis.set(cfg.apiUrl, { key, api: made });
    return { url: made.url, request: (r) => made.request(r), close: () => Promise.resolve() };
  };

  return {
    deps: { connect, api },
    links,
    async keepOnly(hosts) {
      for (const [host, h] of held) if (!hosts.has(host)) drop(host, h, new Error('left the inventory'));
      for (const host of links.keys()) if (!hosts.has(host)) links.delete(host);
      for (const host of opening.keys()) if (!hosts.has(host)) opening.delete(host);
    },
    async close() {
      closed = true;
      opening.clear();
      const open = [...held.values()];
      held.clear();
      await Promise.all(open.map((h) => h.transport.close().catch(() => undefined)));
      await Promise.all([...apis.values()].map((a) => a.api.close().catch(() => undefined)));
      apis.clear();
    },
  };
}
