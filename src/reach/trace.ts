/** -v: one line per SSH connection, remote command and REST request, with its time. Decorators, so nothing below knows. */
import { systemClock } from '../base/clock.ts';
import type { ClusterApi } from '../cluster/types.ts';
import type { HostConfig } from '../inventory/types.ts';
import type { Transport } from '../transport/types.ts';

export type Trace = (line: string) => void;

const ms = (t0: number): string => `${Math.round(systemClock.monotonic() - t0)} ms`;

/** The first line of a command, and how many more there are: batched scripts stay one line. */
export function commandSummary(command: string): string {
  const lines = command.split('\n');
  const head = lines[0]!.length > 100 ? `${lines[0]!.slice(0, 100)}…` : lines[0]!;
  return lines.length > 1 ? `${head} (+${lines.length - 1} lines)` : head;
}

export function traceConnect(
  connect: (cfg: HostConfig) => Promise<Transport>,
  trace: Trace,
): (cfg: HostConfig) => Promise<Transport> {
  return async (cfg) => {
    const t0 = systemClock.monotonic();
    try {
      const t = await connect(cfg);
      trace(`${cfg.name}: connected to ${cfg.user}@${cfg.address}:${cfg.port} (${ms(t0)})`);
      return traceTransport(t, trace);
    } catch (err) {
      trace(`${cfg.name}: connection to ${cfg.address}:${cfg.port} failed (${ms(t0)})`);
      throw err;
    }
  };
}

function traceTransport(transport: Transport, trace: Trace): Transport {
  return {
    host: transport.host,
    async exec(command, opts) {
      const t0 = systemClock.monotonic();
      const r = await transport.exec(command, opts);
      trace(`${transport.host}: exit ${r.code} in ${ms(t0)}: ${commandSummary(command)}`);
      return r;
    },
    async readFile(path, opts) {
      const t0 = systemClock.monotonic();
      const r = await transport.readFile(path, opts);
      trace(`${transport.host}: read ${path} (${r === null ? 'absent' : `${r.length} chars`}, ${ms(t0)})`);
      return r;
    },
    async writeFileAtomic(path, content, opts) {
      const t0 = systemClock.monotonic();
      const r = await transport.writeFileAtomic(path, content, opts);
      trace(`${transport.host}: wrote ${path} (${content.length} chars, ${ms(t0)})`);
      return r;
    },
    ...(transport.statPaths
      ? {
          async statPaths(paths: readonly string[], s: number, follow?: ReadonlySet<string>) {
            const t0 = systemClock.monotonic();
            const r = await transport.statPaths!(paths, s, follow);
            const asked = follow ? paths.length + paths.filter((p) => follow.has(p)).length : 2 * paths.length;
            trace(`${transport.host}: SFTP stat of ${paths.length} paths, ${asked} requests (${ms(t0)})`);
            return r;
          },
        }
      : {}),
    close: () => transport.close(),
  };
}

export function traceApi(api: ClusterApi, trace: Trace): ClusterApi {
  return {
    url: api.url,
    async request(req) {
      const t0 = systemClock.monotonic();
      const qs = req.querystring
        ? `?${new URLSearchParams(Object.entries(req.querystring).map(([k, v]): [string, string] => [k, String(v)]))}`
        : '';
      try {
        const r = await api.request(req);
        trace(`${api.url}: ${req.method} ${req.path}${qs} → ${r.statusCode} (${ms(t0)})`);
        return r;
      } catch (err) {
        trace(`${api.url}: ${req.method} ${req.path}${qs} failed (${ms(t0)})`);
        throw err;
      }
    },
    close: () => api.close(),
  };
}

type Wiring = {
  connect(
    cfg: HostConfig,
    o: { timeout: number; env?: NodeJS.ProcessEnv; warn?: (m: string) => void },
  ): Promise<Transport>;
  api(cfg: HostConfig, o: { env?: NodeJS.ProcessEnv; warn?: (m: string) => void; requestTimeout: number }): ClusterApi;
};

/** The same wiring with every connection and API traced (audit and fix both use it). */
export function tracedWiring<D extends Wiring>(deps: D, trace: Trace | undefined): D {
  if (!trace) return deps;
  return {
    ...deps,
    connect: (cfg, c) => traceConnect((x) => deps.connect(x, c), trace)(cfg),
    api: (cfg, c) => traceApi(deps.api(cfg, c), trace),
  };
}
