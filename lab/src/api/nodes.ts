import type { NodeRuntime } from '../model.ts';
import { BUILD_HASH, clusterUuid, nodeId, upNodes, versionOf } from './cluster.ts';
import { route, type Ctx, type Route } from './router.ts';

function nodeInfo(runtime: NodeRuntime, version: string) {
  return {
    name: runtime.name,
    transport_address: `${runtime.ip}:9300`,
    host: runtime.ip,
    ip: runtime.ip,
    version,
    build_type: 'tar',
    build_hash: BUILD_HASH,
    total_indexing_buffer: 53687091,
    roles: [...runtime.roles].sort(),
    attributes: { ...runtime.attrs },
    plugins: [...runtime.plugins]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((p) => ({
        name: p.name,
        version: p.version,
        opensearch_version: p.engineVersion ?? version,
        java_version: '11',
        description: `${p.name} plugin`,
        classname: `org.opensearch.${p.name.replace(/[^a-z0-9]/gi, '')}.Plugin`,
        custom_foldername: '',
        extended_plugins: [],
        has_native_controller: false,
      })),
    modules: [],
  };
}

/** GET /_nodes[/<filter>[/<metrics>]]: `_local`, `_all`, names or ids; metrics are accepted and ignored. */
function nodes(ctx: Ctx) {
  const all = upNodes(ctx.view);
  const filter = ctx.params.filter;
  const metricWords = [
    'settings',
    'os',
    'process',
    'jvm',
    'thread_pool',
    'transport',
    'http',
    'plugins',
    'ingest',
    'indices',
    'aggregations',
    'search_pipelines',
    '_all',
  ];
  const isMetric =
    filter !== undefined && ctx.params.metric === undefined && filter.split(',').every((f) => metricWords.includes(f));
  let picked = all;
  if (filter && !isMetric && filter !== '_all') {
    const want = filter.split(',');
    picked = all.filter((n) =>
      want.some(
        (w) =>
          w === n.name ||
          w === nodeId(n.name) ||
          (w === '_local' && n.name === ctx.nodeName) ||
          ((w === '_master' || w === '_cluster_manager') && n.name === ctx.view.electedManager()),
      ),
    );
  }
  return {
    body: {
      _nodes: { total: picked.length, successful: picked.length, failed: 0 },
      cluster_name: ctx.view.clusterName,
      nodes: Object.fromEntries(picked.map((n) => [nodeId(n.name), nodeInfo(n, n.version ?? versionOf(ctx.view))])),
    },
  };
}

/** GET / — the banner the official clients read. */
function banner(ctx: Ctx) {
  return {
    body: {
      name: ctx.nodeName,
      cluster_name: ctx.view.clusterName,
      cluster_uuid: clusterUuid(ctx.view.clusterName),
      version: {
        distribution: 'opensearch',
        number: versionOf(ctx.view),
        build_type: 'tar',
        build_hash: BUILD_HASH,
        build_date: '2023-11-29T21:43:10.135035992Z',
        build_snapshot: false,
        lucene_version: '9.7.0',
        minimum_wire_compatibility_version: '7.10.0',
        minimum_index_compatibility_version: '7.0.0',
      },
      tagline: 'The OpenSearch Project: https://opensearch.org/',
    },
  };
}

export const nodeRoutes: Route[] = [
  route('GET', '/', banner),
  route('GET', '/_nodes', nodes),
  route('GET', '/_nodes/{filter}', nodes),
  route('GET', '/_nodes/{filter}/{metric}', nodes),
];
