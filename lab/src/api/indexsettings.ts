/** Index setting keys the engine knows: an unknown key is a 400, so a mistyped key fails in the lab as in production. */
import { badRequest } from './errors.ts';

const KNOWN = new Set([
  'index.number_of_shards',
  'index.number_of_replicas',
  'index.auto_expand_replicas',
  'index.refresh_interval',
  'index.max_result_window',
  'index.max_inner_result_window',
  'index.max_rescore_window',
  'index.max_docvalue_fields_search',
  'index.max_script_fields',
  'index.max_terms_count',
  'index.max_regex_length',
  'index.priority',
  'index.hidden',
  'index.codec',
  'index.replication.type',
  'index.search.idle.after',
  'index.default_pipeline',
  'index.final_pipeline',
  'index.uuid',
  'index.creation_date',
  'index.provided_name',
  'index.version.created',
  'index.version.upgraded',
  'index.unassigned.node_left.delayed_timeout',
  'index.mapping.total_fields.limit',
  'index.mapping.depth.limit',
  'index.mapping.nested_fields.limit',
  'index.translog.durability',
  'index.translog.sync_interval',
  'index.translog.flush_threshold_size',
]);
// families whose members are open-ended (attribute names, block kinds, analysis components)
const PREFIXES = ['index.routing.', 'index.blocks.', 'index.analysis.', 'index.similarity.', 'index.lifecycle.'];

export function checkIndexSettingKeys(keys: string[]): void {
  const unknown = keys.find((k) => !KNOWN.has(k) && !PREFIXES.some((p) => k.startsWith(p)));
  if (unknown)
    throw badRequest(
      `unknown setting [${unknown}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings`,
    );
}
