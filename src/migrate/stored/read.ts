/** A stored document as migrate reads it, and how a search hit becomes one (the reading is in pages.ts). */

import type { ScrollHit } from '../../cluster/scroll.ts';

export interface StoredDoc {
  index: string;
  id: string;
  seqNo: number;
  primaryTerm: number;
  source: Record<string, unknown>;
}

export interface ReadOptions {
  /** Documents per request. */
  page?: number;
  keepAlive?: string;
}

type Hit = ScrollHit;

export const toDoc =
  (index: string) =>
  (h: Hit): StoredDoc => ({
    index: h._index ?? index,
    id: String(h._id),
    seqNo: Number(h._seq_no),
    primaryTerm: Number(h._primary_term),
    source: (typeof h._source === 'object' && h._source !== null ? h._source : {}) as Record<string, unknown>,
  });
