/** Re-reads every pin of a reviewed plan; a cluster that drifted is left untouched, each drift named. */
import type { ReachDeps, ReachHost } from '../reach/index.ts';
import { REACH_NAMES, resolveDeps } from '../reach/resolve.ts';
import type { Report } from '../model/index.ts';
import type { Inventory } from '../inventory/types.ts';
import { gatherApi } from '../audit/gather-api.ts';
import { pinsOf } from '../audit/pins.ts';
import { errText } from '../errors.ts';
import { plannedActions } from './apply.ts';
import { clusterDrift } from './drift.ts';
import { untouched, type ActionOutcome, type ClusterOutcome } from './outcome.ts';
import { clusterSession, type ClusterSession } from './session.ts';

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
  const configs = new Map<string, ReachHost>(o.hosts.map((h) => [h, d.hostConfig(o.inventory, h, o.env)]));
  const groups = d.clustersOf(o.inventory, o.hosts);
  return Promise.all(
    plan.clusters.map(async (c): Promise<ClusterOutcome> => {
      const actions = plannedActions(c);
      if (!actions.length) return untouched(c.api_url);
      const group = groups.find((g) => g.apiUrl === c.api_url);
      let session: ClusterSession | undefined;
      let found: string[];
      try {
        if (!group) throw new Error(`no selected inventory host belongs to ${c.api_url}`);
        session = clusterSession(d, o, configs, configs.get(group.hosts[0]!)!, group.hosts);
        const facts = await gatherApi(session.api);
        if (!facts.reachable) throw new Error(`the REST API could not be read: ${facts.error ?? ''}`);
        found = await clusterDrift(c, pinsOf(facts), session.api, session.transport, actions);
      } catch (err) {
        found = [`the plan's pins could not be checked: ${errText(err)}`];
      } finally {
        await session?.close();
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
