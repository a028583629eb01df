/** Every cluster in one pass: the clusters' API reads beside every host of every cluster under one --forks bound. */
import pLimit from 'p-limit';
import type { ClusterApi } from '../cluster/types.ts';
import type { ClusterGroup, HostConfig } from '../inventory/types.ts';
import { gatherApi } from './gather-api.ts';
import { gatherHost, type Connect } from './gather-host.ts';
import type { ApiFacts, HostFacts } from '../model/index.ts';
import type { PackNeeds } from '../packs/index.ts';
import type { AuditMemo } from './memo.ts';

export type MapLimit = <T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
) => Promise<R[]>;

export interface GatherOptions {
  groups: readonly ClusterGroup[];
  configs: ReadonlyMap<string, HostConfig>;
  apis: ReadonlyMap<string, ClusterApi>;
  connect: Connect;
  mapLimit: MapLimit;
  forks: number;
  timeout: number;
  /** Bytes of one remote file read (SMDOCTOR_MAX_FILE_MIB). */
  maxFileBytes?: number;
  onProgress?: (done: number, total: number) => void;
  /** What the loaded check packs read, joined to the batched command and the REST reads. */
  packs?: PackNeeds;
  /** serve: what the last cycles read, kept while unchanged. */
  memo?: AuditMemo;
}

export interface GatheredCluster {
  group: ClusterGroup;
  api: ApiFacts;
  hosts: HostFacts[];
}

/**
 * How many clusters' REST reads run at once: those whose hosts can be in flight under --forks, and the next one.
 * Each read is 10 parallel TLS connections of about 0.27 MiB of native memory that the allocator keeps after they
 * close: all 40 clusters of a 1,000-host fleet at once were 400 connections and a quarter of the audit's peak RSS.
 */
export function apiReadsAtOnce(groups: readonly ClusterGroup[], forks: number): number {
  // reduce, not Math.min(...groups): spreading a list near the 100,000-host cap comes close to the stack limit
  const smallest = groups.reduce((m, g) => Math.min(m, Math.max(1, g.hosts.length)), Infinity);
  return Math.max(1, Math.min(groups.length, Math.ceil(forks / smallest) + 1));
}

export async function gatherAll(o: GatherOptions): Promise<GatheredCluster[]> {
  // the REST reads run beside the hosts' reads, off their critical path: a host task awaits its cluster's answers only
  // for the keystore decision, after its own read and before it closes its connection. They start in the hosts'
  // order (p-limit is first in, first out), so the cluster whose hosts come next is read next.
  const apiLimit = pLimit(apiReadsAtOnce(o.groups, o.forks));
  const apiFacts = o.groups.map((g) => apiLimit(() => gatherApi(o.apis.get(g.apiUrl)!, o.packs?.apiPaths)));
  const work = o.groups.flatMap((g, gi) => g.hosts.map((h) => ({ gi, cfg: o.configs.get(h)! })));
  let done = 0;
  o.onProgress?.(0, work.length);
  const facts = await o.mapLimit(work, o.forks, async ({ gi, cfg }) => {
    const f = await gatherHost(cfg, o.connect, apiFacts[gi]!, o.timeout, o.packs, o.maxFileBytes, o.memo);
    o.onProgress?.(++done, work.length);
    return f;
  });
  const apis = await Promise.all(apiFacts);
  return o.groups.map((group, gi) => ({
    group,
    api: apis[gi]!,
    hosts: facts.filter((_, i) => work[i]!.gi === gi),
  }));
}
