import { randomBytes } from 'node:crypto';
import type { Candidate } from './query.ts';
import type { Sorted } from './sort.ts';
import type { TotalHits } from './totalhits.ts';

/** A scroll: the full sorted result taken at the first request, read page by page. */
export interface ScrollCtx {
  rows: Sorted[];
  pos: number;
  size: number;
  total: number;
  totalHits: TotalHits;
  shards: number;
  seqNoPrimaryTerm: boolean;
  version: boolean;
  source: unknown;
  hasSort: boolean;
  expires: number;
}

/** A point in time: a frozen copy of the documents of its indices. */
export interface PitCtx {
  indices: string[];
  cands: Candidate[];
  shards: number;
  created: number;
  keepAlive: number;
  expires: number;
}

const newId = () => randomBytes(24).toString('base64url');

/** Lives as long as the API handler (the daemon); expired entries are purged lazily. */
export class Contexts {
  readonly scrolls = new Map<string, ScrollCtx>();
  readonly pits = new Map<string, PitCtx>();

  purge(now = Date.now()): void {
    for (const [id, s] of this.scrolls) if (s.expires < now) this.scrolls.delete(id);
    for (const [id, p] of this.pits) if (p.expires < now) this.pits.delete(id);
  }

  addScroll(scroll: ScrollCtx): string {
    const id = newId();
    this.scrolls.set(id, scroll);
    return id;
  }

  addPit(p: PitCtx): string {
    const id = newId();
    this.pits.set(id, p);
    return id;
  }
}
