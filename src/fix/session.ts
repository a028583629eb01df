/** One cluster's connections while fix works there: its REST client, tunnelled as the audit's, and one per host. */
import { tunnelHostsFor } from '../cluster/tunnel-hosts.ts';
import type { ClusterApi } from '../cluster/types.ts';
import type { Inventory } from '../inventory/types.ts';
import type { ReachDeps, ReachHost } from '../reach/index.ts';
import type { Transport } from '../transport/types.ts';

export interface SessionOptions {
  inventory: Inventory;
  timeout: number;
  env: NodeJS.ProcessEnv;
  warn?: (m: string) => void;
  /** A failed connection is tried again by the next caller (fix's steps); otherwise its error is kept. */
  retryFailed?: boolean;
}

export interface ClusterSession {
  api: ClusterApi;
  /** The host's connection, opened on first use; only selected hosts (in `configs`) may be reached. */
  transport(host: string): Promise<Transport>;
  /** Closes every connection and the client; never throws. */
  close(): Promise<void>;
}

/** `first` is the host whose api_url is used; `clusterHosts` may carry an api_via_ssh tunnel. */
export function clusterSession(
  d: ReachDeps,
  o: SessionOptions,
  configs: Map<string, ReachHost>,
  first: ReachHost,
  clusterHosts: string[],
): ClusterSession {
  const w = o.warn ? { warn: o.warn } : {};
  const tunnelHosts = tunnelHostsFor(
    first,
    clusterHosts.flatMap((h) => configs.get(h) ?? []),
    (n) => configs.get(n) ?? d.hostConfig(o.inventory, n, o.env),
  );
  const api = d.api(first, {
    env: o.env,
    ...w,
    requestTimeout: o.timeout * 1000,
    ...(tunnelHosts ? { tunnelHosts } : {}),
  });
  const transports = new Map<string, Promise<Transport>>();
  return {
    api,
    transport(host) {
      let t = transports.get(host);
      if (!t) {
        const cfg = configs.get(host);
        t = cfg
          ? d.connect(cfg, { timeout: o.timeout, env: o.env, ...w })
          : Promise.reject(new Error(`host ${host} is not selected`));
        if (o.retryFailed) t.catch(() => transports.delete(host));
        transports.set(host, t);
      }
      return t;
    },
    async close() {
      const closing = [...transports.values()].map((p) => p.then((t) => t.close()).catch(() => undefined));
      await Promise.all(closing);
      await api.close().catch(() => undefined);
    },
  };
}
