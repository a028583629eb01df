/**
 * The dynamic cluster settings the lab knows, as OpenSearch's ClusterSettings registers them (a subset: those an SRE
 * or smdoctor sets). Any other key is refused as OpenSearch refuses it, so a mistyped key fails in the lab too.
 */
const KEYS = new Set([
  'action.auto_create_index',
  'action.destructive_requires_name',
  'cluster.blocks.read_only',
  'cluster.blocks.read_only_allow_delete',
  'cluster.indices.close.enable',
  'cluster.info.update.interval',
  'cluster.max_shards_per_node',
  'cluster.routing.allocation.allow_rebalance',
  'cluster.routing.allocation.awareness.attributes',
  'cluster.routing.allocation.cluster_concurrent_rebalance',
  'cluster.routing.allocation.disk.threshold_enabled',
  'cluster.routing.allocation.disk.watermark.flood_stage',
  'cluster.routing.allocation.disk.watermark.high',
  'cluster.routing.allocation.disk.watermark.low',
  'cluster.routing.allocation.enable',
  'cluster.routing.allocation.node_concurrent_recoveries',
  'cluster.routing.allocation.node_initial_primaries_recoveries',
  'cluster.routing.rebalance.enable',
  'indices.recovery.max_bytes_per_sec',
  'persistent_tasks.allocation.enable',
  'search.default_search_timeout',
  'search.max_buckets',
]);

// group settings: any key below these prefixes is one setting (e.g. cluster.routing.allocation.exclude._ip)
const GROUPS = [
  'cluster.routing.allocation.exclude.',
  'cluster.routing.allocation.include.',
  'cluster.routing.allocation.require.',
  'logger.',
];

const known = (key: string) => KEYS.has(key) || GROUPS.some((g) => key.startsWith(g) && key.length > g.length);

/** The first key of a section OpenSearch would refuse, with its reason; a reset of a wildcard key is always taken. */
export function unknownSetting(scope: 'persistent' | 'transient', flat: Record<string, unknown>): string | null {
  for (const [key, value] of Object.entries(flat)) {
    if (value === null && key.endsWith('*')) continue;
    if (!known(key)) return `${scope} setting [${key}], not recognized`;
  }
  return null;
}
