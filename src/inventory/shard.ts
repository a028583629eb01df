/**
 * `--shard K/N`: a stable split of the inventory by cluster, so a cluster's hosts, its cross-node checks and its lease
 * always live in one shard, and every host is in exactly one. K counts from 0, as a Kubernetes Indexed Job's
 * completion index does.
 */
import { createHash } from 'node:crypto';
import { UsageError } from '../base/errors.ts';
import type { ClusterGroup } from './types.ts';

export interface Shard {
  index: number;
  count: number;
}

/** More shards than this is a typo, not a fleet: each shard is a process with its own connections. */
export const MAX_SHARDS = 10_000;

/** `K/N` with 0 ≤ K < N ≤ MAX_SHARDS, both plain decimal integers. */
export function parseShard(text: string): Shard {
  const m = /^(\d{1,5})\/(\d{1,5})$/.exec(text.trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!m || count < 1 || count > MAX_SHARDS || index >= count)
    throw new UsageError(
      `--shard: '${text}' is not K/N with 0 <= K < N <= ${MAX_SHARDS} (K counts from 0, like $JOB_COMPLETION_INDEX)`,
    );
  return { index, count };
}

/** The shard a cluster belongs to: the first 48 bits of sha256(api_url) modulo N (the same on every machine). */
export function shardOf(apiUrl: string, count: number): number {
  const head = createHash('sha256').update(apiUrl).digest().readUIntBE(0, 6);
  return head % count;
}

/** The clusters of this shard, in the inventory's order, each with its position among all clusters. */
export function clustersInShard(
  all: readonly ClusterGroup[],
  shard: Shard,
): Array<ClusterGroup & { position: number }> {
  return all.flatMap((g, position) => (shardOf(g.apiUrl, shard.count) === shard.index ? [{ ...g, position }] : []));
}
