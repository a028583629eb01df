/** Re-reads every pin of a reviewed plan; a cluster that drifted is left untouched, each drift named. */
import type { ReachDeps } from '../reach/index.ts';
import { REACH_NAMES, resolveDeps } from '../reach/resolve.ts';
import type { Report } from '../model/index.ts';
import type { Inventory } from '../inventory/types.ts';
import type { Transport } from '../transport/types.ts';
import { gatherApi } from '../audit/gather-api.ts';
import { pinsOf } from '../audit/pins.ts';
import { errText } from '../errors.ts';
import { plannedActions } from './apply.ts';
import { clusterDrift } from './drift.ts';
import { untouched, type ActionOutcome, type ClusterOutcome } from './outcome.ts';

export interface DriftOptions {
  inventory: Inventory;
  hosts: string[];
  timeout: number;
  env: NodeJS.ProcessEnv;
  warn?: (m: string) => void;
  deps?: Partial<ReachDeps>;
}

/**
 * One outcome per cluster of the plan: a drifted cluster is refused (each drift named, every planned action refused),
 * the others are untouched. The plan is only read; `driftReport` makes the report of it.
 */
export async function applyDrift(plan: Report, o: DriftOptions): Promise<ClusterOutcome[]> {
  const d = await resolveDeps<ReachDeps>(
    o.deps ?? {},
    REACH_NAMES,
    async () => (await import('../reach/index.ts')).reachDeps,
  );
  const groups = d.clustersOf(o.inventory, o.hosts);
  const w = o.warn ? { warn: o.warn } : {};
  return Promise.all(
    plan.clusters.map(async (c): Promise<ClusterOutcome> => {
      const actions = plannedActions(c);
      if (!actions.length) return untouched(c.api_url);
      const group = groups.find((g) => g.apiUrl === c.api_url);
      const transports = new Map<string, Promise<Transport>>();
      let found: string[];
      let api;
      try {
        if (!group) throw new Error(`no selected inventory host belongs to ${c.api_url}`);
        api = d.api(d.hostConfig(o.inventory, group.hosts[0]!, o.env), {
          env: o.env,
          ...w,
          requestTimeout: o.timeout * 1000,
        });
        const facts = await gatherApi(api);
        if (!facts.reachable) throw new Error(`the REST API could not be read: ${facts.error ?? ''}`);
        const transport = (host: string): Promise<Transport> => {
          let t = transports.get(host);
          if (!t) {
            t = o.hosts.includes(host)
              ? d.connect(d.hostConfig(o.inventory, host, o.env), { timeout: o.timeout, env: o.env, ...w })
              : Promise.reject(new Error(`host ${host} is not selected`));
            transports.set(host, t);
          }
          return t;
        };
        found = await clusterDrift(c, pinsOf(facts), api, transport, actions);
      } catch (err) {
        found = [`the plan's pins could not be checked: ${errText(err)}`];
      } finally {
        await Promise.all(
          [...transports.values()].map((p) =>
            p
              .then(
                (t) => t.close(),
                () => undefined,
              )
              .catch(() => undefined),
          ),
        );
        await api?.close().catch(() => undefined);
      }
      if (!found.length) return untouched(c.api_url);
      const reason = 'the cluster drifted from the plan: nothing was changed here';
      return {
        ...untouched(c.api_url),
        failed: true,
        refused: found.map((f) => `drift: ${f}`),
        actions: actions.map((): ActionOutcome => ({ status: 'refused', reason })),
      };
    }),
  );
}
