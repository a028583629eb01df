/** One cluster's plan, in order, one step at a time; the first failure stops that cluster. */
import type { Action, ClusterReport } from '../model/index.ts';
import { untouched, type ActionOutcome, type ClusterOutcome } from './outcome.ts';
import { redactText } from '../text/index.ts';
import { putDocument, putSettings, verifyShards } from './steps-api.ts';
import { editFile, removeCommand } from './steps-host.ts';
import { restartService } from './restart.ts';
import { resetAllocationStep } from './steps-api.ts';
import { electedLast, isEngineRestart } from './order.ts';
import { preflight, type Preflight } from './gate.ts';
import { LeaseLost } from './lease.ts';
import { deadline, Interrupted, pause, type Deadline } from '../base/deadline.ts';
import { waitUntil, type Look } from './wait.ts';
import { errText } from '../base/errors.ts';
import type { Step, StepEnv, StepResult, StepTable } from './types.ts';

export const STEPS: StepTable = {
  'put-document': putDocument,
  'set-yaml': editFile,
  'set-hosts': editFile,
  'remove-plugin': removeCommand,
  'remove-keystore-entry': removeCommand,
  'restart-service': restartService,
  'put-settings': putSettings,
  'verify-shards': verifyShards,
  'reset-allocation': resetAllocationStep,
};

/** The cluster's planned actions: its own (reset-allocation) first, then the checks' in the vendor's troubleshooting order. */
export function plannedActions(cluster: ClusterReport): Action[] {
  return [...(cluster.actions ?? []), ...cluster.checks.flatMap((check) => check.actions)].filter(
    (action) => action.status === 'planned',
  );
}

/** "3. set-yaml on m1" — names a step in other steps' reasons. */
export function stepName(action: Action, step: number): string {
  return `${step}. ${action.type}${action.host ? ` on ${action.host}` : ''}`;
}

/** The step's result as the outcome of its action; the error redacted here, so an outcome is safe to print. */
function outcomeOf(result: StepResult, step: number): ActionOutcome {
  const ran = {
    step,
    ...(result.reason !== undefined ? { reason: result.reason } : {}),
    ...(result.backup !== undefined ? { backup: result.backup } : {}),
    ...(result.output !== undefined ? { output: result.output } : {}),
    ...(result.allocation ? { allocation: result.allocation } : {}),
  };
  if (result.status === 'done') return { status: 'done', ...ran };
  if (result.status === 'skipped') return { status: 'skipped', cause: 'nothing-to-do', ...ran };
  const error = redactText(result.error ?? 'the step failed without saying why');
  return { status: 'failed', error, ...ran, ...(result.left !== undefined ? { left: result.left } : {}) };
}

export interface ApplyHooks {
  /** Told after each step, with what became of it (progress on the terminal); n counts in run order. */
  onStep?: (action: Action, outcome: ActionOutcome, step: number) => void;
  steps?: Partial<StepTable>;
}

/**
 * Before the first engine restart: the pre-flight (after any reset-allocation, once the cluster had time to
 * settle), then the elected manager's restart moved last. Returns the actions to run, or why none may.
 */
async function prepare(
  cluster: ClusterReport,
  actions: Action[],
  done: number,
  env: StepEnv,
): Promise<{ actions: Action[] } | { refused: string }> {
  const restarts = actions.filter(isEngineRestart);
  if (!restarts.length) return { actions };
  const hosts = restarts.map((action) => action.host);
  const dl = deadline((done > 0 ? 5 : 1) * env.timeout * 1000, env.now, env.signal);
  // a fresh cluster is judged once; after a reset-allocation it gets time to recover; Ctrl-C ends it with the cause seen
  const judging: Deadline = { ...dl, expired: () => done === 0 || dl.expired() || env.signal?.aborted === true };
  const gate = await waitUntil(
    judging,
    async (): Promise<Look<Preflight>> => {
      try {
        const seen = await dl.race(preflight(env.api, cluster, hosts, env.allowYellow === true), 'pre-flight');
        return seen.ok ? { holds: true, value: seen } : { holds: false, why: seen.why };
      } catch (err) {
        // nothing has changed yet: Ctrl-C during the pre-flight is its refusal, not an abort of the run
        if (err instanceof Interrupted) return { holds: false, why: err.message };
        throw err;
      }
    },
    // the pause ends early on Ctrl-C, and the next look says so
    { sleep: (ms) => pause(env.sleep, ms, env.signal).catch(() => undefined), pollMs: env.pollMs, initial: '' },
  );
  if (!gate.holds) return { refused: `pre-flight: ${gate.cause}` };
  env.baselineUnassigned = gate.value.baselineUnassigned;
  return { actions: electedLast(actions, cluster.nodes, gate.value.elected) };
}

/**
 * Runs the cluster's planned actions in order and returns what became of each (in the plan's order), the pre-flight's
 * refusal and the state a failed restart left. The cluster report is only read.
 */
export async function applyCluster(
  cluster: ClusterReport,
  stepEnv: StepEnv,
  hooks: ApplyHooks = {},
): Promise<ClusterOutcome> {
  const planned = plannedActions(cluster);
  const outcomes = new Map<Action, ActionOutcome>();
  const out = untouched(cluster.api_url);
  // the pre-flight writes its baseline into the env: this cluster's own copy
  const env: StepEnv = { ...stepEnv };
  let actions = planned;
  let stop: { reason: string; cause: 'refused' | 'earlier-failure' | 'interrupted' } | null = null;
  let prepared = false;
  const settle = (action: Action, outcome: ActionOutcome, step: number): void => {
    outcomes.set(action, outcome);
    hooks.onStep?.(action, outcome, step);
  };
  for (let i = 0; i < actions.length; i++) {
    let action = actions[i]!;
    if (stop === null && !prepared && action.type !== 'reset-allocation') {
      prepared = true;
      const ready = await prepare(cluster, actions, i, env);
      if ('refused' in ready) {
        stop = { reason: ready.refused, cause: 'refused' };
        out.failed = true;
        out.refused.push(ready.refused);
      } else actions = ready.actions;
      action = actions[i]!;
    }
    if (stop === null && env.signal?.aborted) {
      const lost = env.signal.reason instanceof LeaseLost ? env.signal.reason.message : null;
      stop = {
        reason: lost ? `stopped before this step: ${lost}` : 'interrupted: the run was stopped before this step',
        cause: 'interrupted',
      };
      out.interrupted = true;
    }
    if (stop !== null) {
      settle(
        action,
        stop.cause === 'refused'
          ? { status: 'refused', step: i + 1, reason: stop.reason }
          : { status: 'skipped', cause: stop.cause, step: i + 1, reason: stop.reason },
        i + 1,
      );
      continue;
    }
    // TypeScript cannot correlate action.type with the table's entry for it: the table's type guarantees the match
    const step = (hooks.steps?.[action.type] ?? STEPS[action.type]) as Step;
    let result: StepResult;
    try {
      result = await step(action, env);
    } catch (err) {
      result = { status: 'failed', error: errText(err) };
    }
    const outcome = outcomeOf(result, i + 1);
    if ('allocation' in outcome && outcome.allocation) out.allocation = outcome.allocation;
    settle(action, outcome, i + 1);
    if (outcome.status === 'failed') {
      out.failed = true;
      if (outcome.left !== undefined) out.left = outcome.left;
      stop = {
        reason: `an earlier step failed: ${stepName(action, i + 1)}: ${outcome.error}`,
        cause: 'earlier-failure',
      };
    }
  }
  out.actions = planned.map((action) => outcomes.get(action)!);
  return out;
}
