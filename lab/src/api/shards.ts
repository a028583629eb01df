import { shardOf, type IndexRecord } from './records.ts';
import { stringifyLong } from 'smdoctor';

export type HealthColor = 'green' | 'yellow' | 'red';

/** Red when a primary is not started, yellow when a replica is not, else green. */
export function indexHealth(rec: IndexRecord): HealthColor {
  if (rec.copies.some((c) => c.primary && c.state !== 'STARTED')) return 'red';
  if (rec.copies.some((c) => c.state !== 'STARTED')) return 'yellow';
  return 'green';
}

export function worst(hs: HealthColor[]): HealthColor {
  return hs.includes('red') ? 'red' : hs.includes('yellow') ? 'yellow' : 'green';
}

/** Documents of one shard and a plausible on-disk size (JSON bytes plus Lucene overhead). */
export function copyStats(rec: IndexRecord, shard: number): { docs: number; bytes: number } {
  const shards = Number(rec.settings['index.number_of_shards']);
  let docs = 0;
  let bytes = 208;
  for (const [id, d] of rec.docs) {
    if (shardOf(id, shards) !== shard) continue;
    docs++;
    bytes += stringifyLong(d.source).length + 120;
  }
  return { docs, bytes };
}
