/** The lab's record of one index and its shard copies, shared by the store and the allocator. */
import { createHash } from 'node:crypto';
import type { DocMap } from './docmap.ts';
import type { Mappings } from './fields.ts';
import type { Flat } from './tree.ts';

export interface ShardCopy {
  shard: number;
  primary: boolean;
  node: string | null;
  state: 'STARTED' | 'INITIALIZING' | 'UNASSIGNED';
  /** Unassigned: the node it was on when that node left, and when. */
  lastNode?: string;
  since?: number;
  /** Initializing: when the recovery ends. */
  readyAt?: number;
}

export interface IndexRecord {
  name: string;
  /** Flat `index.`-prefixed settings, every value a string. */
  settings: Flat;
  mappings: Mappings;
  /** Packed: each source kept as JSON text (docmap.ts). */
  docs: DocMap;
  nextSeqNo: number;
  nextOrder: number;
  copies: ShardCopy[];
  /** Aliases pointing to this index. */
  aliases?: string[];
}

/** Which primary shard holds a document (stable hash of the id). */
export function shardOf(id: string, shards: number): number {
  return createHash('md5').update(id).digest().readUInt32BE(0) % shards;
}
