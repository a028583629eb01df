/** Fakes for fix tests: a transport over an in-memory file map, an API answering from a handler, a clock that moves on sleep. */
import type { ActionOf, ActionType, ClusterReport } from '../../../src/model/index.ts';
import type { ApiRequest, ApiResponse, ClusterApi } from '../../../src/cluster/types.ts';
import type { ExecOptions, ExecResult, Transport } from '../../../src/transport/types.ts';
import type { BackupStore } from '../../../src/base/backup.ts';
import type { StepEnv } from '../../../src/fix/types.ts';
import type { FleetLeases } from '../../../src/fix/leases.ts';
import { fakeApi as coreFakeApi, type FakeApi } from '../fake-api.ts';
import type { LeaseState } from '../../../src/fix/lease.ts';

/** Every call of every fake, in order: the tests assert sequences on it. */
export type Log = string[];

export interface FakeHost extends Transport {
  files: Map<string, string>;
  execs: Array<{ command: string; opts?: ExecOptions }>;
  writes: string[];
}

export function fakeHost(
  host: string,
  log: Log,
  files: Record<string, string> = {},
  answer: (command: string) => ExecResult = () => ({ code: 0, stdout: '', stderr: '' }),
): FakeHost {
  const t: FakeHost = {
    host,
    files: new Map(Object.entries(files)),
    execs: [],
    writes: [],
    async exec(command, opts) {
      log.push(`exec ${host} ${command}`);
      t.execs.push({ command, ...(opts ? { opts } : {}) });
      return answer(command);
    },
    async readFile(path) {
      log.push(`read ${host} ${path}`);
      return t.files.get(path) ?? null;
    },
    async writeFileAtomic(path, content) {
      log.push(`write ${host} ${path}`);
      const old = t.files.get(path) ?? null;
      t.files.set(path, content);
      t.writes.push(path);
      return { backup: old };
    },
    async close() {},
  };
  return t;
}

export type Handler = (req: ApiRequest, n: number) => ApiResponse;

/** The fake API with each request (but the release read at `GET /`) logged as `api METHOD path?query`. */
export function fakeApi(log: Log, handler: Handler): FakeApi {
  return coreFakeApi(
    (req, n) => {
      const qs = req.querystring
        ? `?${new URLSearchParams(Object.entries(req.querystring).map(([k, v]): [string, string] => [k, String(v)])).toString()}`
        : '';
      log.push(`api ${req.method} ${req.path}${qs}`);
      return handler(req, n);
    },
    { release: '2.19.1' },
  );
}

export function memoryBackup(
  log: Log,
): BackupStore & { saved: Array<{ host: string; path: string; content: string }> } {
  const saved: Array<{ host: string; path: string; content: string }> = [];
  return {
    dir: '/backups/20240101T000000Z',
    saved,
    async save(host, path, content) {
      log.push(`backup ${host} ${path}`);
      saved.push({
        host,
        path,
        content: typeof content === 'string' ? content : Buffer.from(content).toString('utf8'),
      });
      return `/backups/20240101T000000Z/${host}${path}`;
    },
  };
}

export const NODES: ClusterReport['nodes'] = [
  { host: 'm1', address: '10.0.0.11', name: 'm1', roles: ['cluster_manager'], reachable: true },
  { host: 'm2', address: '10.0.0.12', name: 'm2', roles: ['cluster_manager'], reachable: true },
  { host: 'd1', address: '10.0.0.21', name: 'd1', roles: ['data'], reachable: true },
  { host: 'web1', address: '10.0.0.31', name: null, roles: [], reachable: true },
];

/** A step env whose clock advances only when a step sleeps. */
export function fakeEnv(log: Log, api: ClusterApi, hosts: FakeHost[], over: Partial<StepEnv> = {}): StepEnv {
  let clock = 0;
  return {
    api,
    nodes: NODES,
    backup: memoryBackup(log),
    timeout: 10,
    pollMs: 1000,
    now: () => clock,
    sleep: async (ms) => {
      log.push(`sleep ${ms}`);
      clock += ms;
    },
    async transport(host) {
      const t = hosts.find((h) => h.host === host);
      if (!t) throw new Error(`no fake host ${host}`);
      return t;
    },
    ...over,
  };
}

export const ok = (body: unknown = {}): ApiResponse => ({ statusCode: 200, body });
export const errorBody = (status: number, type: string, reason = type): ApiResponse => ({
  statusCode: status,
  body: { error: { root_cause: [{ type, reason }], type, reason }, status },
});

/** A planned action of the kind its type names; tests give only the fields the step under test reads. */
export const planned = <T extends ActionType>(
  a: { type: T } & Partial<Omit<ActionOf<T>, 'status' | 'type'>>,
): ActionOf<T> => ({ ...a, status: 'planned' }) as unknown as ActionOf<T>;

/** Frozen all the way down: a write anywhere inside throws (ES modules are strict), so a test sees any mutation. */
export function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/** For command tests whose audit and apply are fakes: no cluster to hold a lease in, so none is taken. */
export const noLeases = async (): Promise<FleetLeases> => ({
  states: new Map<string, LeaseState>(),
  lost: () => undefined,
  release: async () => undefined,
});
