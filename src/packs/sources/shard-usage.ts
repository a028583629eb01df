/** `shard_usage`: open shards over `cluster.max_shards_per_node` × data nodes (fleet pack; `each: cluster`). */
import { FLEET_API, shardUsage as usage } from '../read/sources-fleet.ts';
import type { SourceKind } from './kind.ts';

export const shardUsage: SourceKind<'shard_usage'> = {
  doc: {
    write: '`shard_usage`',
    value: 'open shards ÷ (`cluster.max_shards_per_node` × data nodes), a fraction (`each: cluster`)',
  },
  cluster: true,
  needs: (_, n) => [FLEET_API.health, FLEET_API.settings].forEach((p) => n.apiPaths.add(p)),
  read: (_, c) => usage(c),
};
