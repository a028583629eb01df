/** Applying a fix plan: per cluster in parallel, steps in order inside each; one connection per host, closed at the end. */
import { tracedWiring, type Trace } from '../reach/trace.ts';
import { openFleet, type AccessOptions, type Fleet, type ReachDeps } from '../reach/index.ts';
import type { Action, ClusterReport, Report } from '../model/index.ts';
import { errText } from '../errors.ts';
import type { Inventory } from '../inventory/types.ts';
import { applyCluster, plannedActions, type ApplyHooks } from './apply.ts';
import type { BackupStore } from '../backup.ts';
import type { RestartStrategy, StepEnv, WaitProgress } from './types.ts';
import { untouched, type ActionOutcome, type ApplyOutcome, type ClusterOutcome } from './outcome.ts';
import { settledAction } from './report.ts';

export interface ApplyPlanOptions {
  inventory: Inventory;
  hosts: string[];
  /** --ssh-config and --jump-channels (none when left out). */
  access?: AccessOptions;
  timeout: number;
  env: NodeJS.ProcessEnv;
  backup: BackupStore;
  warn?: (m: string) => void;
  signal?: AbortSignal;
  /** A second interrupt: a restarting node is no longer waited for before the allocation setting is restored. */
  urgent?: AbortSignal;
  /** Told after each step: the action as the fix report shows it (status, reason or error), its number in run order. */
  onStep?: (c: ClusterReport, a: Action, n: number, outcome: ActionOutcome) => void;
  /** Default 1000 ms. */
  pollMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Replaces how hosts and clusters are reached (tests). */
  deps?: Partial<ReachDeps>;
  steps?: ApplyHooks['steps'];
  /** Default rolling. */
  restart?: RestartStrategy;
  /** --allow-yellow. */
  allowYellow?: boolean;
  /** Told on every poll of a rolling restart. */
  onProgress?: (c: ClusterReport, p: WaitProgress) => void;
  /** -v: every connection, command and request of the steps, with its time. */
  trace?: Trace;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Carries out every planned action of the plan: per cluster, what became of each action, the pre-flight's refusal and
 * how a failed restart left the cluster. The plan is only read; `fixReport(plan, outcome)` makes the fix report of it.
 */
export async function applyPlan(plan: Report, o: ApplyPlanOptions): Promise<ApplyOutcome> {
  const fleet = openFleet({
    inventory: o.inventory,
    hosts: o.hosts,
    access: o.access ?? {},
    timeout: o.timeout,
    env: o.env,
    ...(o.warn ? { warn: o.warn } : {}),
    retryFailed: true,
    ...(o.deps ? { deps: o.deps } : {}),
    decorate: (r) => tracedWiring(r, o.trace),
  });
  try {
    return await applyWith(plan, o, fleet);
  } finally {
    await fleet.close();
  }
}

async function applyWith(plan: Report, o: ApplyPlanOptions, fleet: Fleet): Promise<ApplyOutcome> {
  const clusters = await Promise.all(
    plan.clusters.map(async (c): Promise<ClusterOutcome> => {
      const planned = plannedActions(c);
      if (planned.length === 0) return untouched(c.api_url);
      try {
        const api = fleet.api(c.api_url, c.nodes.find((n) => n.host)?.host ?? undefined);
        const env: StepEnv = {
          api,
          nodes: c.nodes,
          backup: o.backup,
          timeout: o.timeout,
          pollMs: o.pollMs ?? 1000,
          now: o.now ?? Date.now,
          sleep: o.sleep ?? sleep,
          ...(o.signal ? { signal: o.signal } : {}),
          ...(o.urgent ? { urgent: o.urgent } : {}),
          ...(o.allowYellow ? { allowYellow: true } : {}),
          ...(o.restart ? { restart: o.restart } : {}),
          ...(o.onProgress ? { onProgress: (p: WaitProgress) => o.onProgress!(c, p) } : {}),
          transport: (host) => fleet.transport(host),
        };
        return await applyCluster(c, env, {
          ...(o.steps ? { steps: o.steps } : {}),
          onStep: (a, outcome, n) => o.onStep?.(c, settledAction(a, outcome), n, outcome),
        });
      } catch (err) {
        // nothing could start here (no API client): the first step fails with the reason, the rest are skipped
        const why = errText(err);
        return {
          ...untouched(c.api_url),
          failed: true,
          actions: planned.map((_a, i): ActionOutcome =>
            i === 0
              ? { status: 'failed', step: 1, error: why }
              : { status: 'skipped', cause: 'earlier-failure', step: i + 1, reason: `an earlier step failed: ${why}` },
          ),
        };
      }
    }),
  );
  return { clusters, interrupted: clusters.some((c) => c.interrupted) };
}
