/** `_cluster/health?level=shards`: each index's shards by number, as ClusterShardHealth writes them. */
import type { IndexRecord } from './records.ts';

type Copy = IndexRecord['copies'][number];

// a shard is red without a started primary, yellow without every replica started (ClusterShardHealth.getShardHealth)
function status(copies: Copy[]): 'green' | 'yellow' | 'red' {
  if (!copies.some((c) => c.primary && c.state === 'STARTED')) return 'red';
  return copies.every((c) => c.state === 'STARTED') ? 'green' : 'yellow';
}

/** `{"0": {status, primary_active, active_shards, relocating_shards, initializing_shards, unassigned_shards}, …}`. */
export function shardsHealth(rec: IndexRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const count = Number(rec.settings['index.number_of_shards']);
  for (let shard = 0; shard < count; shard++) {
    const copies = rec.copies.filter((c) => c.shard === shard);
    out[String(shard)] = {
      status: status(copies),
      primary_active: copies.some((c) => c.primary && c.state === 'STARTED'),
      active_shards: copies.filter((c) => c.state === 'STARTED').length,
      relocating_shards: 0,
      initializing_shards: copies.filter((c) => c.state === 'INITIALIZING').length,
      unassigned_shards: copies.filter((c) => c.state === 'UNASSIGNED').length,
    };
  }
  return out;
}
