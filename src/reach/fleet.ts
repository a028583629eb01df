/**
 * One fleet session, the only way audit, fix and the migration reach a fleet: the selected hosts and their clusters,
 * each host's session and each cluster's REST client opened on first use (at most --forks connecting at once),
 * all closed together.
 */
import pLimit from 'p-limit';
import { tunnelHostsFor } from '../cluster/tunnel-hosts.ts';
import type { ClusterApi } from '../cluster/types.ts';
import type { ClusterGroup, Inventory } from '../inventory/types.ts';
import type { Transport } from '../transport/types.ts';
import { reachDeps, type ReachDeps } from './deps.ts';
import type { AccessOptions, ReachHost } from './types.ts';
import { newRouteCache } from './route-cache.ts';

export interface FleetSessionOptions extends FleetRun {
  /** --ssh-config and --jump-channels. */
  access: AccessOptions;
  /** Sessions opening at once (--forks); unbounded when left out. */
  forks?: number;
  /** A failed connection is tried again by the next caller (fix's steps); otherwise its error is kept. */
  retryFailed?: boolean;
  /** Wraps the openers, whoever gave them (-v: every connection and request traced). */
  decorate?: (d: ReachDeps) => ReachDeps;
}

export interface Fleet {
  /** Each selected host's settings, its OpenSSH configuration applied. */
  readonly hosts: ReadonlyMap<string, ReachHost>;
  /** The clusters the selected hosts belong to. */
  readonly clusters: readonly ClusterGroup[];
  /**
   * The REST client of the cluster at `apiUrl` (under api_via_ssh, tunnelled through its hosts); `viaHost` names the
   * selected host whose settings reach it when no selected host's cluster has that URL.
   */
  api(apiUrl: string, viaHost?: string): ClusterApi;
  /** A selected host's session, opened on first use; closing it releases the host (the next call opens another). */
  transport(host: string): Promise<Transport>;
  /** Closes every session and client still open; never throws. */
  close(): Promise<void>;
}

/**
 * What every fleet command's run holds for its fleet session (audit, fix, its leases, export): declared once, each
 * command's options extend it; `more` adds what only that command sets.
 */
export interface FleetRun {
  inventory: Inventory;
  /** The selected hosts (after --limit). */
  hosts: string[];
  /** --ssh-config and --jump-channels (none when left out). */
  access?: AccessOptions;
  /** Seconds per connection attempt, remote command and REST request. */
  timeout: number;
  env: NodeJS.ProcessEnv;
  warn?: (message: string) => void;
  /** Replaces how hosts are resolved and opened (tests). */
  deps?: Partial<ReachDeps>;
}

export const fleetOf = (
  run: FleetRun,
  more: Pick<FleetSessionOptions, 'forks' | 'retryFailed' | 'decorate'> = {},
): Fleet =>
  openFleet({
    inventory: run.inventory,
    hosts: run.hosts,
    access: run.access ?? {},
    timeout: run.timeout,
    env: run.env,
    ...(run.warn ? { warn: run.warn } : {}),
    ...(run.deps ? { deps: run.deps } : {}),
    ...more,
  });

/** A host's session as opened, and as handed out (its close releases the host). */
interface Session {
  opened: Promise<Transport>;
  handed: Promise<Transport>;
}

export function openFleet(o: FleetSessionOptions): Fleet {
  const given: ReachDeps = { ...reachDeps, ...o.deps };
  const d = o.decorate ? o.decorate(given) : given;
  // the run's routes, or this session's own (a library caller's run), closed with it
  const own = o.access.routes ? undefined : newRouteCache();
  const access: AccessOptions = own ? { ...o.access, routes: own } : o.access;
  const jumps = { jumps: access.routes!.jumps };
  const w = o.warn ? { warn: o.warn } : {};
  const hosts = new Map(o.hosts.map((h) => [h, d.hostConfig(o.inventory, h, o.env, access)]));
  const byName = (n: string): ReachHost => hosts.get(n) ?? d.hostConfig(o.inventory, n, o.env, access);
  const clusters = d.clustersOf(o.inventory, o.hosts, o.env, access);
  const limit = pLimit(o.forks ?? Number.POSITIVE_INFINITY);
  const apis = new Map<string, ClusterApi>();
  const sessions = new Map<string, Session>();
  // closes begun by callers that did not wait for them (audit frees a fork slot at the command's exit): awaited at the end
  const closing = new Set<Promise<void>>();

  const openApi = (apiUrl: string, viaHost?: string): ClusterApi => {
    const group = clusters.find((g) => g.apiUrl === apiUrl);
    const first = hosts.get(group?.hosts[0] ?? viaHost ?? '');
    if (!first) throw new Error(`no inventory host belongs to ${apiUrl}`);
    const tunnelHosts = tunnelHostsFor(
      first,
      (group?.hosts ?? []).flatMap((h) => hosts.get(h) ?? []),
      byName,
    );
    return d.api(first, {
      env: o.env,
      ...w,
      requestTimeout: o.timeout * 1000,
      ...(tunnelHosts ? { tunnelHosts } : {}),
      ...jumps,
    });
  };

  const forget = (host: string, s: Session): void => {
    if (sessions.get(host) === s) sessions.delete(host);
  };
  const openSession = (host: string, cfg: ReachHost): Session => {
    const opened = limit(() => d.connect(cfg, { timeout: o.timeout, env: o.env, ...w, ...jumps }));
    const s: Session = {
      opened,
      handed: opened.then((t): Transport => ({
        host: t.host,
        exec: (command, opts) => t.exec(command, opts),
        readFile: (path, opts) => t.readFile(path, opts),
        writeFileAtomic: (path, content, opts) => t.writeFileAtomic(path, content, opts),
        ...(t.statPaths
          ? {
              statPaths: (paths: readonly string[], s: number, follow?: ReadonlySet<string>) =>
                t.statPaths!(paths, s, follow),
            }
          : {}),
        close: () => {
          forget(host, s);
          const closed = t.close();
          closing.add(closed);
          const settled = (): void => void closing.delete(closed);
          closed.then(settled, settled);
          return closed;
        },
      })),
    };
    if (o.retryFailed) opened.catch(() => forget(host, s));
    return s;
  };

  return {
    hosts,
    clusters,
    api(apiUrl, viaHost) {
      let api = apis.get(apiUrl);
      if (!api) apis.set(apiUrl, (api = openApi(apiUrl, viaHost)));
      return api;
    },
    transport(host) {
      let s = sessions.get(host);
      if (!s) {
        const cfg = hosts.get(host);
        if (!cfg) return Promise.reject(new Error(`host ${host} is not selected`));
        sessions.set(host, (s = openSession(host, cfg)));
      }
      return s.handed;
    },
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((s) => s.opened.then((t) => t.close()).catch(() => undefined)));
      await Promise.all([...closing].map((c) => c.catch(() => undefined)));
      await Promise.all([...apis.values()].map((a) => a.close().catch(() => undefined)));
      apis.clear();
      await own?.close();
    },
  };
}
