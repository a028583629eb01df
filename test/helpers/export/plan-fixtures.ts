/** A small plan on two hosts, and the fakes the exporter reads them through (no SSH, no API). */
import { parse } from 'yaml';
import { setScalar, unifiedDiff } from '../../../src/yamledit/index.ts';
import { sha256 } from '../../../src/base/hash.ts';
import type { FileEdit } from '../../../src/export/edits.ts';
import { exportAnsible } from '../../../src/export/ansible.ts';
import type { Action, ClusterReport, Report } from '../../../src/model/index.ts';
import type { ReachDeps, ReachHost } from '../../../src/reach/index.ts';
import type { Inventory } from '../../../src/inventory/types.ts';
import type { Transport } from '../../../src/transport/types.ts';

export const PATH = '/etc/opensearch/opensearch.yml';

export function edit(
  host: string,
  bytes: Buffer,
  key = 'node.attr.node_with_sme',
  value: boolean = false,
  path = PATH,
): FileEdit {
  const text = bytes.toString('latin1');
  const r = setScalar(text, key, value);
  if (!r.ok) throw new Error('test edit failed');
  return {
    type: 'set-yaml',
    host,
    path,
    key,
    value,
    diff: unifiedDiff(path, text, r.text),
    base_sha256: sha256(bytes),
    status: 'planned',
  };
}

export const M1 = Buffer.from('node.name: m1\nnode.attr.node_with_sme: true\n');
export const D1 = Buffer.from(
  'node.name: d1\nnode.attr.node_with_sme: true\nplugins.security.ssl.keystore_password: s3cret\n',
);

export function cluster(actions: Action[]): ClusterReport {
  return {
    api_url: 'https://10.0.0.1:9200',
    name: 'prod',
    nodes: [
      { host: 'm1', address: '10.0.0.1', name: 'm1', roles: ['cluster_manager', 'data'], reachable: true },
      { host: 'd1', address: '10.0.0.2', name: 'd1', roles: ['cluster_manager', 'data'], reachable: true },
    ],
    notes: [],
    checks: [
      {
        id: 'master-node-with-sme',
        order: 2,
        status: 'fail',
        reason: 'x',
        findings: [{ host: 'm1', message: 'node.attr.node_with_sme is true on master m1' }],
        actions,
      },
    ],
    pins: {
      nodes: [
        { name: 'd1', ip: '10.0.0.2', roles: ['cluster_manager', 'data'] },
        { name: 'm1', ip: '10.0.0.1', roles: ['cluster_manager', 'data'] },
      ],
      elected_manager: 'm1',
      cluster_settings: { persistent: {}, transient: {} },
      index_settings: null,
    },
  };
}

export const restart = (host: string): Action => ({
  type: 'restart-service',
  host,
  service: 'opensearch',
  command: `sudo -n systemctl restart opensearch`,
  status: 'planned',
});

export function deps(files: Record<string, Buffer>, apiUrl: string): Partial<ReachDeps> {
  return {
    hostConfig: (_inv, name) => ({ host: name }) as unknown as ReachHost,
    clustersOf: () => [{ apiUrl, hosts: ['m1', 'd1'] }] as ReturnType<ReachDeps['clustersOf']>,
    connect: async (cfg) =>
      ({
        readFile: async () => files[(cfg as unknown as { host: string }).host]?.toString('latin1') ?? null,
        close: async () => undefined,
      }) as unknown as Transport,
    api: () => {
      throw new Error('the exporter does not call the API');
    },
  };
}

export const report = (c: ClusterReport): Report => ({
  schema_version: 3,
  generated_at: new Date().toISOString(),
  tool: 'smdoctor',
  version: '0',
  mode: 'audit',
  clusters: [c],
  summary: { clusters: 1, hosts: 2, unreachable: 0, checks_failed: 1 },
});

export type Task = Record<string, unknown>;

/** The pins and steps of the first play: the block that runs under the lease, after the lease tasks. */
export const planTasks = (site: string): Task[] =>
  ((parse(site) as Array<{ tasks: Task[] }>)[0]!.tasks.at(-1)!.block as Task[]).filter(
    (x) => !String(x.name).startsWith('Lease | '),
  );

export const run = (plan: Report, files: Record<string, Buffer>) =>
  exportAnsible(plan, {
    inventory: {} as Inventory,
    hosts: ['m1', 'd1'],
    env: {},
    timeout: 60,
    allowYellow: false,
    planFile: 'plan.json',
    deps: deps(files, plan.clusters[0]!.api_url),
  });
