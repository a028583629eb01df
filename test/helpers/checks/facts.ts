/** Realistic gathered facts for check tests: _cat rows as strings exactly as OPENSEARCH-FACTS.md shows them. */
import type { ApiFacts, CatRow, ClusterFacts, HostFacts, NodeView } from '../../../src/model/index.ts';
import type { HostConfig } from '../../../src/inventory/types.ts';
import { BASE_LIMIT_DEFAULTS } from '../../../src/checks/index.ts';
import { SM_PLUGINS } from '../../../src/model/index.ts';
import { hostConfigOf } from '../host-config.ts';

export const API_URL = 'https://10.0.0.1:9200';

export const hostConfig = (name: string, address: string, over: Partial<HostConfig> = {}): HostConfig =>
  hostConfigOf(name, { address, knownHostsFile: '/root/.ssh/known_hosts', apiUrl: API_URL, ...over });

export interface NodeSpec {
  name: string;
  ip: string;
  roles: string[];
  /** Running node_with_sme attribute. */
  sme: boolean;
  /** Running plugins (also installed on disk unless the host says otherwise). */
  plugins: string[];
  /** Inventory host name; null: not in the inventory. Defaults to the node name. */
  host?: string | null;
}

const LETTERS: Record<string, string> = {
  data: 'd',
  ingest: 'i',
  cluster_manager: 'm',
  master: 'm',
  remote_cluster_client: 'r',
  search: 's',
};

export function catNode(n: NodeSpec, elected: boolean): CatRow {
  const roles = [...n.roles].sort();
  const letters = [...new Set(roles.map((r) => LETTERS[r]).filter(Boolean))].sort().join('') || '-';
  return {
    ip: n.ip,
    'heap.percent': '45',
    'ram.percent': '97',
    cpu: '3',
    load_1m: '0.25',
    load_5m: '0.30',
    load_15m: '0.28',
    'node.role': letters,
    'node.roles': roles.join(',') || '',
    cluster_manager: elected ? '*' : '-',
    name: n.name,
  };
}

export function engineYml(n: { name: string; roles: string[]; sme: boolean }): string {
  return `# ======= OpenSearch config =======\ncluster.name: prod\nnode.name: ${n.name}\nnode.roles: [${n.roles.join(', ')}]\n\n# SME participation\nnode.attr.node_with_sme: ${n.sme}\npath.data: /data/opensearch\n`;
}

export function dashboardsYml(hosts: string[]): string {
  return `server.host: "0.0.0.0"\nserver.port: 5601\n# engine nodes (data only)\nopensearch.hosts:\n${hosts.map((h) => `  - ${h}\n`).join('')}opensearch.ssl.verificationMode: full\n`;
}

export function nodeHost(n: NodeSpec, over: Partial<HostFacts> = {}): HostFacts {
  const config = hostConfig(n.host ?? n.name, n.ip);
  return {
    host: n.host ?? n.name,
    config,
    reachable: true,
    engineYml: { path: `${config.searchHome}/config/opensearch.yml`, text: engineYml(n) },
    dashboardsYml: null,
    plugins: n.plugins.map((p) => ({ folder: p, name: p, version: '2.11.0' })),
    keystore: n.plugins.length > 0 ? ['jobscheduler.email.pass', 'keystore.seed'] : ['keystore.seed'],
    isWeb: false,
    engineEnv: {},
    ...over,
  };
}

export function webHost(name: string, ip: string, hosts: string[], over: Partial<HostFacts> = {}): HostFacts {
  const config = hostConfig(name, ip, { inDashboardsGroup: true });
  return {
    host: name,
    config,
    reachable: true,
    engineYml: null,
    engineEnv: null,
    dashboardsYml: { path: `${config.webHome}/config/opensearch_dashboards.yml`, text: dashboardsYml(hosts) },
    plugins: [],
    keystore: null,
    isWeb: true,
    ...over,
  };
}

/** NodeViews as the correlator makes them: running roles from node.roles, matched to hosts by address or name. */
export function nodeViews(rows: CatRow[], hosts: HostFacts[]): NodeView[] {
  return rows.map((r) => {
    const roles = (r['node.roles'] ?? '').split(',').filter(Boolean);
    const h = hosts.find((x) => x.config.address === r.ip) ?? hosts.find((x) => x.host === r.name);
    return {
      name: r.name!,
      ip: r.ip!,
      roles,
      isMaster: roles.includes('cluster_manager') || roles.includes('master'),
      ...(h ? { host: h.host } : {}),
    };
  });
}

export const SM = [...SM_PLUGINS];

/** The standard fleet: three masters, two data nodes with the SME plugins, one web host; everything healthy. */
export function specs(): NodeSpec[] {
  return [
    { name: 'm1', ip: '10.0.0.1', roles: ['cluster_manager'], sme: false, plugins: [] },
    { name: 'm2', ip: '10.0.0.2', roles: ['cluster_manager'], sme: false, plugins: [] },
    { name: 'm3', ip: '10.0.0.3', roles: ['cluster_manager'], sme: false, plugins: [] },
    { name: 'd1', ip: '10.0.0.4', roles: ['data', 'ingest'], sme: true, plugins: SM },
    { name: 'd2', ip: '10.0.0.5', roles: ['data', 'ingest'], sme: true, plugins: SM },
  ];
}

export function shardRows(nodes: Array<{ name: string; ip: string }>, state = 'STARTED'): CatRow[] {
  return nodes.map((n, i) => ({
    index: '.sm_sme_limits_user',
    shard: '0',
    prirep: i === 0 ? 'p' : 'r',
    state,
    docs: '1',
    store: '5.1kb',
    ip: n.ip,
    node: n.name,
  }));
}

export function limitsSettings(autoExpand?: string) {
  const index: Record<string, unknown> = {
    replication: { type: 'DOCUMENT' },
    refresh_interval: '1s',
    number_of_shards: '1',
    provided_name: '.sm_sme_limits_user',
    max_result_window: '10000',
    creation_date: '1700000000000',
    priority: '10000',
    number_of_replicas: '1',
    uuid: 'Xb3nq0bYQ9uJ0aPq5yq2bA',
    version: { created: '136327827', upgraded: '136327827' },
  };
  if (autoExpand !== undefined) index.auto_expand_replicas = autoExpand;
  return { statusCode: 200, body: { '.sm_sme_limits_user': { settings: { index } } } };
}

export const NOT_FOUND_INDEX = {
  statusCode: 404,
  body: {
    error: {
      root_cause: [{ type: 'index_not_found_exception', reason: 'no such index [.sm_sme_limits_user]' }],
      type: 'index_not_found_exception',
      reason: 'no such index [.sm_sme_limits_user]',
    },
    status: 404,
  },
};

export interface Build {
  nodes?: NodeSpec[];
  hosts?: HostFacts[];
  web?: HostFacts[];
  api?: Partial<ApiFacts>;
}

/** A whole cluster; pass changed specs or hosts to break one thing at a time. */
export function cluster(b: Build = {}): ClusterFacts {
  const nodes = b.nodes ?? specs();
  const hosts = b.hosts ?? nodes.filter((n) => n.host !== null).map((n) => nodeHost(n));
  const web = b.web ?? [webHost('w1', '10.0.0.9', ['https://10.0.0.4:9200', 'https://10.0.0.5:9200'])];
  const all = [...hosts, ...web];
  const rows = nodes.map((n, i) => catNode(n, i === 0));
  const doc = structuredClone(BASE_LIMIT_DEFAULTS);
  const api: ApiFacts = {
    reachable: true,
    clusterName: 'prod',
    nodes: rows,
    nodeattrs: nodes.map((n) => ({ node: n.name, host: n.ip, ip: n.ip, attr: 'node_with_sme', value: String(n.sme) })),
    plugins: nodes.flatMap((n) => n.plugins.map((p) => ({ name: n.name, component: p, version: '2.11.0' }))),
    baseLimitEndpoint: { statusCode: 200, body: doc },
    baseLimitDoc: {
      statusCode: 200,
      body: {
        _index: '.sm_sme_limits_user',
        _id: 'base_limit',
        _version: 1,
        _seq_no: 0,
        _primary_term: 1,
        found: true,
        _source: doc,
      },
    },
    limitsSettings: limitsSettings('0-all'),
    limitsShards: shardRows(nodes.filter((n) => n.roles.includes('data'))),
    ...b.api,
  };
  return { apiUrl: API_URL, name: 'prod', hosts: all, api, nodes: nodeViews(rows, all) };
}

export function withNode(name: string, change: Partial<NodeSpec>): NodeSpec[] {
  return specs().map((n) => (n.name === name ? { ...n, ...change } : n));
}
