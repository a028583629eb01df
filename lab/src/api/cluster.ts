import { createHash } from 'node:crypto';
import type { ClusterView, NodeRuntime } from '../model.ts';
import type { IndexStore } from './store.ts';

/** The engine version the lab impersonates. */
export const LAB_VERSION = '2.11.1';
export const BUILD_HASH = '6b1986e964d440be9137eba1413015c31c5a7752';

/** The release a cluster answers as. */
export const versionOf = (view: ClusterView): string => view.version ?? LAB_VERSION;

/** 1.x names the manager role and its `_cat/nodes` column `master`; 2.0 renamed both `cluster_manager`. */
export const isLine1 = (view: ClusterView): boolean => versionOf(view).startsWith('1.');

/** Only nodes that are up are members of the cluster. */
export function upNodes(view: ClusterView): NodeRuntime[] {
  return view.nodes().filter((n) => n.state === 'up');
}

export function isData(runtime: NodeRuntime): boolean {
  return runtime.roles.includes('data');
}

export function upDataNodes(view: ClusterView): string[] {
  return upNodes(view)
    .filter(isData)
    .map((n) => n.name)
    .sort();
}

export function storeOf(view: ClusterView): IndexStore {
  return view.store as IndexStore;
}

const lastSeen = new WeakMap<ClusterView, string>();

/**
 * Keeps shard placement in step with the view: reallocates when the store has
 * another node set at first sight, then whenever the view's up data nodes
 * change. A direct reallocate() by the daemon stands until the view changes.
 */
export function syncAllocation(view: ClusterView): void {
  const store = storeOf(view);
  const now = upDataNodes(view);
  const key = now.join(',');
  const last = lastSeen.get(view);
  const stale = last === undefined ? store.dataNodes?.join(',') !== key : last !== key;
  lastSeen.set(view, key);
  if (stale) store.reallocate(now);
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** A stable 22-character node id, like the engine's. */
export function nodeId(name: string): string {
  return digest(`node:${name}`).toString('base64url').slice(0, 22);
}

export function clusterUuid(clusterName: string): string {
  return digest(`cluster:${clusterName}`).toString('base64url').slice(0, 22);
}

/** Stable plausible gauges per node (percentages and load), so repeated calls agree. */
export function nodeStats(name: string) {
  const d = digest(`stats:${name}`);
  const load = (i: number) => (d[i] / 255).toFixed(2);
  return {
    heapPercent: String(20 + (d[0] % 50)),
    ramPercent: String(60 + (d[1] % 36)),
    cpu: String(d[2] % 10),
    load1: load(3),
    load5: load(4),
    load15: load(5),
    pid: String(1000 + (((d[6] << 8) | d[7]) % 60000)),
  };
}

/** Bytes as _cat shows them (`208b`, `5.2kb`, `1mb`). */
export function humanBytes(n: number): string {
  const units = ['b', 'kb', 'mb', 'gb', 'tb'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${v}b` : `${Number.isInteger(v) ? v : v.toFixed(1).replace(/\.0$/, '')}${units[i]}`;
}
