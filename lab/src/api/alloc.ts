/**
 * Shard allocation over time, as the engine does it: a data node that leaves makes its copies
 * unassigned (a started replica is promoted), lost replicas wait `delayed_timeout` and are then
 * allocated elsewhere (a relocation, logged), a returning node recovers its copies after a delay.
 * `cluster.routing.allocation.enable` decides what may be allocated at all.
 */
import type { IndexRecord, ShardCopy } from './records.ts';

export interface AllocTiming {
  /** Scaled-down `index.unassigned.node_left.delayed_timeout` (the engine's default is 1m). */
  delayedTimeoutMs: number;
  /** How long a copy stays INITIALIZING on a node before it is STARTED. */
  recoveryDelayMs: number;
  /**
   * How long a new replica (of a new index, or one more replica) stays INITIALIZING while it copies its primary; the
   * engine's peer recovery takes from under a second to minutes. 0: started at once.
   */
  newCopyDelayMs: number;
}

export const DEFAULT_TIMING: AllocTiming = { delayedTimeoutMs: 200, recoveryDelayMs: 300, newCopyDelayMs: 0 };

export type Enable = 'all' | 'primaries' | 'new_primaries' | 'none';

const holders = (copies: ShardCopy[]): Set<string> =>
  new Set(copies.filter((c) => c.node !== null).map((c) => c.node!));

/** A node left: its copies become unassigned; a started replica of a lost primary takes its place. */
export function nodeLeft(rec: IndexRecord, node: string, now: number, log: (line: string) => void): void {
  for (const c of rec.copies.filter((x) => x.node === node)) {
    Object.assign(c, { node: null, state: 'UNASSIGNED', lastNode: node, since: now });
    delete c.readyAt;
    if (!c.primary) continue;
    const heir = rec.copies.find((x) => x.shard === c.shard && !x.primary && x.state === 'STARTED');
    if (heir) {
      heir.primary = true;
      c.primary = false;
      log(`promote [${rec.name}][${c.shard}] replica on ${heir.node} to primary (${node} left)`);
    }
  }
}

/** Whether an unassigned replica is still waiting for its node to come back. */
export function isDelayed(copy: ShardCopy, up: Set<string>, now: number, delayMs: number): boolean {
  return (
    copy.state === 'UNASSIGNED' &&
    !copy.primary &&
    copy.lastNode !== undefined &&
    !up.has(copy.lastNode) &&
    now < (copy.since ?? 0) + delayMs
  );
}

function leastLoaded(candidates: string[], load: Map<string, number>): string | undefined {
  return [...candidates].sort((a, b) => (load.get(a) ?? 0) - (load.get(b) ?? 0) || (a < b ? -1 : 1))[0];
}

/** One pass: finishes recoveries, then places what the allocation setting allows. Returns the next time something is due. */
export function allocateIndex(
  rec: IndexRecord,
  up: string[],
  enable: Enable,
  now: number,
  timing: AllocTiming,
  load: Map<string, number>,
  log: (line: string) => void,
): number | null {
  // index.routing.allocation.require._name: only that node may hold a copy
  const only = rec.settings['index.routing.allocation.require._name'];
  if (only !== undefined) up = up.filter((n) => n === only);
  const upSet = new Set(up);
  const delay = delayOf(rec, timing);
  let due: number | null = null;
  const soon = (at: number) => {
    due = due === null ? at : Math.min(due, at);
  };
  const start = (copy: ShardCopy, node: string, recover: boolean) => {
    copy.node = node;
    load.set(node, (load.get(node) ?? 0) + 1);
    delete copy.lastNode;
    delete copy.since;
    // an empty new primary starts at once; a new replica copies its primary first
    const ms = recover ? timing.recoveryDelayMs : copy.primary ? 0 : timing.newCopyDelayMs;
    if (ms > 0) {
      copy.state = 'INITIALIZING';
      copy.readyAt = now + ms;
      soon(copy.readyAt);
    } else copy.state = 'STARTED';
  };
  for (const c of rec.copies) {
    if (c.state === 'INITIALIZING' && (c.readyAt ?? 0) <= now) {
      c.state = 'STARTED';
      delete c.readyAt;
    } else if (c.state === 'INITIALIZING') soon(c.readyAt!);
  }
  const shards = new Set(rec.copies.map((c) => c.shard));
  for (const s of shards) {
    const copies = rec.copies.filter((c) => c.shard === s);
    for (const c of copies.filter((x) => x.state === 'UNASSIGNED')) {
      const taken = holders(copies);
      if (c.primary) {
        if (enable === 'none') continue;
        if (c.lastNode !== undefined) {
          // only the node that held it has its data
          if (upSet.has(c.lastNode)) start(c, c.lastNode, true);
        } else {
          const n = leastLoaded(
            up.filter((x) => !taken.has(x)),
            load,
          );
          if (n) start(c, n, false);
        }
        continue;
      }
      if (enable !== 'all') continue;
      if (!copies.some((x) => x.primary && x.state === 'STARTED')) continue;
      if (c.lastNode !== undefined && upSet.has(c.lastNode) && !taken.has(c.lastNode)) {
        log(`recover [${rec.name}][${s}] replica on ${c.lastNode} (it came back)`);
        start(c, c.lastNode, true);
        continue;
      }
      if (isDelayed(c, upSet, now, delay)) {
        soon((c.since ?? 0) + delay);
        continue;
      }
      const n = leastLoaded(
        up.filter((x) => !taken.has(x)),
        load,
      );
      if (!n) continue;
      if (c.lastNode !== undefined)
        log(`relocate [${rec.name}][${s}] replica of ${c.lastNode} (left ${now - (c.since ?? now)} ms ago) to ${n}`);
      start(c, n, c.lastNode !== undefined);
    }
  }
  return due;
}

/** The index's own delayed_timeout when set (taken as is), else the lab's scaled-down one. */
export function delayOf(rec: IndexRecord, timing: AllocTiming): number {
  const v = rec.settings['index.unassigned.node_left.delayed_timeout'];
  const m = v === undefined ? null : /^(\d+)(ms|s|m)$/.exec(v);
  return m ? Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000 } as Record<string, number>)[m[2]!]! : timing.delayedTimeoutMs;
}

/** Adds or drops copies so each shard has replicas+1; unassigned copies go first, then replicas of the last nodes. */
export function resizeCopies(rec: IndexRecord, replicas: number): void {
  const shards = Number(rec.settings['index.number_of_shards']);
  const out: ShardCopy[] = [];
  for (let s = 0; s < shards; s++) {
    const copies = rec.copies.filter((c) => c.shard === s);
    const rank = (copy: ShardCopy) =>
      copy.primary ? 0 : copy.state === 'STARTED' ? 1 : copy.state === 'INITIALIZING' ? 2 : 3;
    copies.sort((a, b) => rank(a) - rank(b));
    while (copies.length > replicas + 1) copies.pop();
    if (!copies.some((c) => c.primary)) copies.unshift({ shard: s, primary: true, node: null, state: 'UNASSIGNED' });
    while (copies.length < replicas + 1) copies.push({ shard: s, primary: false, node: null, state: 'UNASSIGNED' });
    out.push(...copies);
  }
  rec.copies = out;
}
