/** A small fake cluster served by the real API over HTTPS, for the integration tests. */
import { Client } from '@opensearch-project/opensearch';
import type { Test } from 'tap';
import type { ClusterView, NodeRuntime, ScenarioIndex } from '../../src/model.ts';
import { IndexStore } from '../../src/api/store.ts';
import { createApiServer } from '../../src/api/server.ts';
import { generateLabTls } from '../../src/tls.ts';
import { allocateLoopback } from '../../src/net.ts';

export const AUTH = { username: 'admin', password: 'lab-secret' };

export function fakeNodes(ip: (i: number) => string): NodeRuntime[] {
  const node = (i: number, name: string, roles: string[], extra: Partial<NodeRuntime> = {}): NodeRuntime => ({
    name,
    ip: ip(i),
    roles,
    attrs: {},
    plugins: [],
    state: 'up',
    ...extra,
  });
  return [
    node(1, 'master-1', ['cluster_manager'], {
      attrs: { node_with_sme: 'true' },
      plugins: [{ name: 'sm-job-scheduler', version: '2.11.1.0' }],
    }),
    node(2, 'master-2', ['cluster_manager']),
    node(3, 'master-3', ['cluster_manager']),
    node(4, 'data-1', ['data', 'ingest'], {
      attrs: { node_with_sme: 'true', temp: 'hot' },
      plugins: [{ name: 'sme-re', version: '5.0.0' }],
    }),
    node(5, 'data-2', ['data', 'ingest']),
    node(6, 'data-3', ['data', 'ingest'], { state: 'restarting' }),
  ];
}

export const BASE_LIMIT = {
  allowed_dt_start: 'now-10y',
  allowed_dt_end: 'now',
  max_parallel_request_count: 5,
  allowed_commands: ['*'],
  _meta: { id: 'base_limit' },
};

export function fakeIndices(): ScenarioIndex[] {
  const many = Object.fromEntries(
    Array.from({ length: 30 }, (_, i) => [
      `job-${String(i).padStart(2, '0')}`,
      { n: i, query: `source logs | search f=${i}`, _meta: { id: `j${i}` } },
    ]),
  );
  return [
    {
      name: '.sm_sme_limits_user',
      settings: { index: { auto_expand_replicas: '0-all', number_of_shards: 1 } },
      docs: { base_limit: BASE_LIMIT },
    },
    { name: '.sm_jsc_jobs', docs: many },
    {
      name: 'logs',
      settings: { number_of_replicas: 1 },
      docs: { a: { message: 'hello', author: { id: 'u1', name: 'Ann' }, level: 3, ok: true, ratio: 0.5 } },
    },
  ];
}

export interface Lab {
  view: ClusterView & { all: NodeRuntime[] };
  store: IndexStore;
  client: Client;
  url: string;
  ca: string;
}

/** Starts the API of `master-1` on a fresh loopback address; stopped in teardown. */
export async function startLab(t: Test, indices: ScenarioIndex[] = fakeIndices()): Promise<Lab> {
  const [ip] = await allocateLoopback(1, [9200]);
  const prefix = ip.slice(0, ip.lastIndexOf('.'));
  const all = fakeNodes((i) => `${prefix}.${i}`);
  const store = IndexStore.fromScenario(indices);
  const view = { clusterName: 'lab-cluster', all, nodes: () => all, electedManager: () => 'master-1', store };
  const tls = await generateLabTls(t.testdir(), [ip]);
  const server = createApiServer({ view, nodeName: 'master-1', tls, auth: AUTH });
  await new Promise<void>((resolve) => server.listen(9200, ip, resolve));
  const url = `https://${ip}:9200`;
  const client = new Client({ node: url, auth: AUTH, ssl: { ca: tls.caCert }, maxRetries: 0 });
  t.teardown(async () => {
    await client.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  return { view, store, client, url, ca: tls.caCert };
}

export type Req = { method: string; path: string; querystring?: Record<string, unknown>; body?: unknown };

/** Any request; every status resolves to {statusCode, body, headers}. */
export async function call(lab: Lab, req: Req) {
  try {
    const res = await lab.client.transport.request(req as never);
    return { statusCode: res.statusCode ?? 0, body: res.body as any, headers: res.headers ?? {} };
  } catch (err: any) {
    if (err?.meta?.statusCode)
      return { statusCode: err.meta.statusCode as number, body: err.meta.body as any, headers: err.meta.headers ?? {} };
    throw err;
  }
}
