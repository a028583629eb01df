/** Every cluster in one pass: each API read at once, then every host of every cluster under one --forks bound. */
import type { ClusterApi } from '../cluster/types.ts';
import type { ClusterGroup, HostConfig } from '../inventory/types.ts';
import { gatherApi } from './gather-api.ts';
import { gatherHost, type Connect } from './gather-host.ts';
import type { ApiFacts, HostFacts } from '../model/index.ts';

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
  onProgress?: (done: number, total: number) => void;
}

export interface GatheredCluster {
  group: ClusterGroup;
  api: ApiFacts;
  hosts: HostFacts[];
}

export async function gatherAll(o: GatherOptions): Promise<GatheredCluster[]> {
  // the REST reads run beside the hosts' reads, off their critical path: a host task awaits its cluster's answers only
  // for the keystore decision, after its own read and before it closes its connection
  const apiFacts = o.groups.map((g) => gatherApi(o.apis.get(g.apiUrl)!));
  const work = o.groups.flatMap((g, gi) => g.hosts.map((h) => ({ gi, cfg: o.configs.get(h)! })));
  let done = 0;
  o.onProgress?.(0, work.length);
  const facts = await o.mapLimit(work, o.forks, async ({ gi, cfg }) => {
    const f = await gatherHost(cfg, o.connect, apiFacts[gi]!, o.timeout);
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
