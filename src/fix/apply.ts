/** One cluster's plan, in order, one step at a time; the first failure stops that cluster. */
import type { Action, ClusterReport } from '../model/index.ts';
import { untouched, type ActionOutcome, type ClusterOutcome } from './outcome.ts';
import { redactText } from '../secrets.ts';
import { putDocument, putSettings, verifyShards } from './steps-api.ts';
import { editFile, removeCommand } from './steps-host.ts';
import { restartService } from './restart.ts';
import { resetAllocationStep } from './steps-api.ts';
import { electedLast, isEngineRestart } from './order.ts';
import { preflight } from './gate.ts';
import { causeAfter, deadline, pause } from '../deadline.ts';
import { errText, type Step, type StepEnv, type StepResult, type StepTable } from './types.ts';

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
export function plannedActions(c: ClusterReport): Action[] {
  return [...(c.actions ?? []), ...c.checks.flatMap((k) => k.actions)].filter((a) => a.status === 'planned');
}

/** "3. set-yaml on m1" — names a step in other steps' reasons. */
export function stepName(a: Action, n: number): string {
  return `${n}. ${a.type}${a.host ? ` on ${a.host}` : ''}`;
}

/** The step's result as the outcome of its action; the error redacted here, so an outcome is safe to print. */
function outcomeOf(r: StepResult, step: number): ActionOutcome {
  const ran = {
    step,
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    ...(r.backup !== undefined ? { backup: r.backup } : {}),
    ...(r.output !== undefined ? { output: r.output } : {}),
    ...(r.allocation ? { allocation: r.allocation } : {}),
  };
  if (r.status === 'done') return { status: 'done', ...ran };
  if (r.status === 'skipped') return { status: 'skipped', cause: 'nothing-to-do', ...ran };
  const error = redactText(r.error ?? 'the step failed without saying why');
  return { status: 'failed', error, ...ran, ...(r.left !== undefined ? { left: r.left } : {}) };
}

export interface ApplyHooks {
  /** Told after each step, with what became of it (progress on the terminal); n counts in run order. */
  onStep?: (a: Action, outcome: ActionOutcome, n: number) => void;
  steps?: Partial<StepTable>;
}

/**
 * Before the first engine restart: the pre-flight (after any reset-allocation, once the cluster had time to
 * settle), then the elected manager's restart moved last. Returns the actions to run, or why none may.
 */
async function prepare(
  c: ClusterReport,
  actions: Action[],
  done: number,
  env: StepEnv,
): Promise<{ actions: Action[] } | { refused: string }> {
  const restarts = actions.filter(isEngineRestart);
  if (!restarts.length || env.restart === 'plain') return { actions };
  const hosts = restarts.map((a) => a.host);
  const dl = deadline((done > 0 ? 5 : 1) * env.timeout * 1000, env.now, env.signal);
  let last = '';
  for (;;) {
    try {
      const p = await dl.race(preflight(env.api, c, hosts, env.allowYellow === true), 'pre-flight');
      if (p.ok) {
        env.baselineUnassigned = p.baselineUnassigned;
        return { actions: electedLast(actions, c.nodes, p.elected) };
      }
      last = p.why;
    } catch (err) {
      last = causeAfter(err, last);
    }
    // a fresh cluster is judged once; after a reset-allocation it gets time to recover
    if (done === 0 || dl.expired() || env.signal?.aborted) return { refused: `pre-flight: ${last}` };
    await pause(env.sleep, env.pollMs, env.signal).catch(() => undefined);
  }
}

/**
 * Runs the cluster's planned actions in order and returns what became of each (in the plan's order), the pre-flight's
 * refusal and the state a failed restart left. The cluster report is only read.
 */
export async function applyCluster(
  c: ClusterReport,
  stepEnv: StepEnv,
  hooks: ApplyHooks = {},
): Promise<ClusterOutcome> {
  const planned = plannedActions(c);
  const outcomes = new Map<Action, ActionOutcome>();
  const out = untouched(c.api_url);
  // the pre-flight writes its baseline into the env: this cluster's own copy
  const env: StepEnv = { ...stepEnv };
  let actions = planned;
  let stop: { reason: string; cause: 'refused' | 'earlier-failure' | 'interrupted' } | null = null;
  let prepared = false;
  const settle = (a: Action, o: ActionOutcome, n: number): void => {
    outcomes.set(a, o);
    hooks.onStep?.(a, o, n);
  };
  for (let i = 0; i < actions.length; i++) {
    let a = actions[i]!;
    if (stop === null && !prepared && a.type !== 'reset-allocation') {
      prepared = true;
      const p = await prepare(c, actions, i, env);
      if ('refused' in p) {
        stop = { reason: p.refused, cause: 'refused' };
        out.failed = true;
        out.refused.push(p.refused);
      } else actions = p.actions;
      a = actions[i]!;
    }
    if (stop === null && env.signal?.aborted) {
      stop = { reason: 'interrupted: the run was stopped before this step', cause: 'interrupted' };
      out.interrupted = true;
    }
    if (stop !== null) {
      settle(
        a,
        stop.cause === 'refused'
          ? { status: 'refused', step: i + 1, reason: stop.reason }
          : { status: 'skipped', cause: stop.cause, step: i + 1, reason: stop.reason },
        i + 1,
      );
      continue;
    }
    // TypeScript cannot correlate a.type with the table's entry for it: the table's type guarantees the match
    const step = (hooks.steps?.[a.type] ?? STEPS[a.type]) as Step;
    let r: StepResult;
    try {
      r = await step(a, env);
    } catch (err) {
      r = { status: 'failed', error: errText(err) };
    }
    const o = outcomeOf(r, i + 1);
    if ('allocation' in o && o.allocation) out.allocation = o.allocation;
    settle(a, o, i + 1);
    if (o.status === 'failed') {
      out.failed = true;
      if (o.left !== undefined) out.left = o.left;
      stop = { reason: `an earlier step failed: ${stepName(a, i + 1)}: ${o.error}`, cause: 'earlier-failure' };
    }
  }
  out.actions = planned.map((a) => outcomes.get(a)!);
  return out;
}
