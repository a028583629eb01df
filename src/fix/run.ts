/** Applying a fix plan: per cluster in parallel, steps in order inside each; one connection per host, closed at the end. */
import { fleetOf, type Fleet, type FleetRun, type ReachDeps, tracedWiring, type Trace } from '../reach/index.ts';
import type { Action, ClusterReport, Report } from '../model/index.ts';
import { errText } from '../base/errors.ts';
import { anySignal } from '../base/deadline.ts';
import { applyCluster, plannedActions } from './apply.ts';
import type { BackupStore } from '../base/backup.ts';
import type { StepEnv, StepTable, WaitProgress } from './types.ts';
import { systemClock, type Clock } from '../base/clock.ts';
import { untouched, type ActionOutcome, type ApplyOutcome, type ClusterOutcome } from './outcome.ts';
import { settledAction } from './report.ts';

export interface ApplyPlanOptions extends FleetRun {
  backup: BackupStore;
  signal?: AbortSignal;
  /** A second interrupt: a restarting node is no longer waited for before the allocation setting is restored. */
  urgent?: AbortSignal;
  /** One cluster's own stop (its lease was lost): as `signal`, for that cluster only. */
  stopCluster?: (apiUrl: string) => AbortSignal | undefined;
  /** Told after each step: the action as the fix report shows it (status, reason or error), its number in run order. */
  onStep?: (cluster: ClusterReport, action: Action, step: number, outcome: ActionOutcome) => void;
  /** Default 1000 ms. */
  pollMs?: number;
  /** What fix builds on (reaching hosts and clusters, the clock, the steps); what is left out is the real module. */
  deps?: Partial<FixDeps>;
  /** --allow-yellow. */
  allowYellow?: boolean;
  /** Told on every poll of a rolling restart. */
  onProgress?: (cluster: ClusterReport, progress: WaitProgress) => void;
  /** -v: every connection, command and request of the steps, with its time. */
  trace?: Trace;
}

/** What fix builds on: how the fleet is reached, the clock, and (tests) a step replaced, as a plain restart. */
export interface FixDeps extends ReachDeps, Clock {
  steps: Partial<StepTable>;
}

/**
 * Carries out every planned action of the plan: per cluster, what became of each action, the pre-flight's refusal and
 * how a failed restart left the cluster. The plan is only read; `fixReport(plan, outcome)` makes the fix report of it.
 */
export async function applyPlan(plan: Report, options: ApplyPlanOptions): Promise<ApplyOutcome> {
  const fleet = fleetOf(options, { retryFailed: true, decorate: (wiring) => tracedWiring(wiring, options.trace) });
  try {
    return await applyWith(plan, options, fleet);
  } finally {
    await fleet.close();
  }
}

async function applyWith(plan: Report, options: ApplyPlanOptions, fleet: Fleet): Promise<ApplyOutcome> {
  const clusters = await Promise.all(
    plan.clusters.map(async (cluster): Promise<ClusterOutcome> => {
      const planned = plannedActions(cluster);
      if (planned.length === 0) return untouched(cluster.api_url);
      try {
        const api = fleet.api(cluster.api_url, cluster.nodes.find((node) => node.host)?.host ?? undefined);
        const signal = anySignal([options.signal, options.stopCluster?.(cluster.api_url)]);
        const env: StepEnv = {
          api,
          nodes: cluster.nodes,
          backup: options.backup,
          timeout: options.timeout,
          pollMs: options.pollMs ?? 1000,
          now: options.deps?.now ?? systemClock.now,
          sleep: options.deps?.sleep ?? systemClock.sleep,
          ...(signal ? { signal } : {}),
          ...(options.urgent ? { urgent: options.urgent } : {}),
          ...(options.allowYellow ? { allowYellow: true } : {}),
          ...(options.onProgress
            ? { onProgress: (progress: WaitProgress) => options.onProgress!(cluster, progress) }
            : {}),
          transport: (host) => fleet.transport(host),
        };
        return await applyCluster(cluster, env, {
          ...(options.deps?.steps ? { steps: options.deps.steps } : {}),
          onStep: (action, outcome, step) => options.onStep?.(cluster, settledAction(action, outcome), step, outcome),
        });
      } catch (err) {
        // nothing could start here (no API client): the first step fails with the reason, the rest are skipped
        const why = errText(err);
        return {
          ...untouched(cluster.api_url),
          failed: true,
          actions: planned.map((_action, i): ActionOutcome =>
            i === 0
              ? { status: 'failed', step: 1, error: why }
              : { status: 'skipped', cause: 'earlier-failure', step: i + 1, reason: `an earlier step failed: ${why}` },
          ),
        };
      }
    }),
  );
  return { clusters, interrupted: clusters.some((outcome) => outcome.interrupted) };
}
