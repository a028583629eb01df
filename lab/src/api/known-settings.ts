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

// search backpressure, registered since 2.4 (none in the 1.3 line): opensearch-project/OpenSearch,
// server/src/main/java/org/opensearch/search/backpressure/settings/ SearchBackpressureSettings.java
// @ 102cfd5c47308d1331b42f22b02b0ffd5f587446, NodeDuressSettings.java @ 0ebda9cac0f366966caec365702150e99701e6b4 (its
// native_memory_threshold, newer than the lab's lines, left out), SearchShardTaskSettings.java
// @ e016a423de8e59d4e34dda7bfdf42eb66d1c74a3 (SearchTaskSettings registers the same names under search_task)
const TASK_KEYS = [
  'cancellation_ratio',
  'cancellation_rate',
  'cancellation_burst',
  'total_heap_percent_threshold',
  'cpu_time_millis_threshold',
  'elapsed_time_millis_threshold',
  'heap_percent_threshold',
  'heap_variance',
  'heap_moving_average_window_size',
];
const BACKPRESSURE = new Set([
  'search_backpressure.mode',
  'search_backpressure.cancellation_ratio',
  'search_backpressure.cancellation_rate',
  'search_backpressure.cancellation_burst',
  'search_backpressure.node_duress.num_successive_breaches',
  'search_backpressure.node_duress.cpu_threshold',
  'search_backpressure.node_duress.heap_threshold',
  ...['search_task', 'search_shard_task'].flatMap((t) => TASK_KEYS.map((k) => `search_backpressure.${t}.${k}`)),
]);

const known = (key: string, line1: boolean) =>
  KEYS.has(key) || (!line1 && BACKPRESSURE.has(key)) || GROUPS.some((g) => key.startsWith(g) && key.length > g.length);

// SearchBackpressureMode.fromName
const MODES = ['disabled', 'monitor_only', 'enforced'];

/**
 * The first key of a section OpenSearch would refuse, with its reason; a reset of a wildcard key is always taken.
 * `line1`: the cluster answers as a 1.3 release.
 */
export function unknownSetting(
  scope: 'persistent' | 'transient',
  flat: Record<string, unknown>,
  line1 = false,
): string | null {
  for (const [key, value] of Object.entries(flat)) {
    if (value === null && key.endsWith('*')) continue;
    if (!known(key, line1)) return `${scope} setting [${key}], not recognized`;
    if (key === 'search_backpressure.mode' && value !== null && !MODES.includes(String(value)))
      return `Invalid SearchBackpressureMode: ${String(value)}`;
  }
  return null;
}
