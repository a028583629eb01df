/** One cluster's plan, in order, one step at a time; the first failure stops that cluster. */
import type { Action, ClusterReport } from '../model/index.ts';
import { redactText } from '../secrets.ts';
import { putDocument, putSettings, verifyShards } from './steps-api.ts';
import { editFile, removeCommand } from './steps-host.ts';
import { PLAIN_RESTART_SWITCH, restartService } from './restart.ts';
import { resetAllocationStep } from './steps-api.ts';
import { electedLast, isEngineRestart } from './order.ts';
import { preflight } from './gate.ts';
import { deadline, pause } from '../deadline.ts';
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

/** The cluster's planned actions: its own (reset-allocation) first, then the checks' in seed order. */
export function plannedActions(c: ClusterReport): Action[] {
  return [...(c.actions ?? []), ...c.checks.flatMap((k) => k.actions)].filter((a) => a.status === 'planned');
}

/** "3. set-yaml on m1" — names a step in other steps' reasons. */
export function stepName(a: Action, n: number): string {
  return `${n}. ${a.type}${a.host ? ` on ${a.host}` : ''}`;
}

function record(a: Action, r: StepResult): void {
  a.status = r.status;
  if (r.reason !== undefined) a.reason = r.reason;
  if (r.error !== undefined) a.error = redactText(r.error);
  if (r.backup !== undefined) a.backup = r.backup;
  if (r.output !== undefined) a.output = r.output;
}

export interface ApplyHooks {
  /** Checked before each step: once aborted, the rest is skipped. */
  signal?: AbortSignal;
  /** Told after each step (progress on the terminal). */
  onStep?: (a: Action, n: number) => void;
  steps?: Partial<StepTable>;
  /** --allow-yellow: the pre-flight and the waits accept a settled yellow. */
  allowYellow?: boolean;
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
  hooks: ApplyHooks,
): Promise<{ actions: Action[] } | { refused: string }> {
  const restarts = actions.filter(isEngineRestart);
  if (!restarts.length || process.env[PLAIN_RESTART_SWITCH] === '1') return { actions };
  const hosts = restarts.map((a) => a.host);
  const dl = deadline((done > 0 ? 5 : 1) * env.timeout * 1000, env.now, hooks.signal);
  let last = '';
  for (;;) {
    try {
      const p = await dl.race(preflight(env.api, c, hosts, hooks.allowYellow === true), 'pre-flight');
      if (p.ok) {
        env.baselineUnassigned = p.baselineUnassigned;
        return { actions: electedLast(actions, c.nodes, p.elected) };
      }
      last = p.why;
    } catch (err) {
      last = errText(err);
    }
    // a fresh cluster is judged once; after a reset-allocation it gets time to recover
    if (done === 0 || dl.expired() || hooks.signal?.aborted) return { refused: `pre-flight: ${last}` };
    await pause(env.sleep, env.pollMs, hooks.signal).catch(() => undefined);
  }
}

/** Mutates the actions' status/reason/error/backup; resolves to whether every step that ran succeeded. */
export async function applyCluster(
  c: ClusterReport,
  env: StepEnv,
  hooks: ApplyHooks = {},
): Promise<{ failed: boolean; interrupted: boolean }> {
  let actions = plannedActions(c);
  let stop: string | null = null;
  let failed = false;
  let interrupted = false;
  let prepared = false;
  if (hooks.signal && !env.signal) env.signal = hooks.signal;
  if (hooks.allowYellow !== undefined && env.allowYellow === undefined) env.allowYellow = hooks.allowYellow;
  for (let i = 0; i < actions.length; i++) {
    let a = actions[i]!;
    if (stop === null && !prepared && a.type !== 'reset-allocation') {
      prepared = true;
      const p = await prepare(c, actions, i, env, hooks);
      if ('refused' in p) {
        stop = p.refused;
        failed = true;
        (c.refused ??= []).push(p.refused);
      } else actions = p.actions;
      a = actions[i]!;
    }
    if (stop === null && hooks.signal?.aborted) {
      stop = 'interrupted: the run was stopped before this step';
      interrupted = true;
    }
    if (stop !== null) {
      record(a, { status: 'skipped', reason: stop });
      hooks.onStep?.(a, i + 1);
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
    record(a, r);
    hooks.onStep?.(a, i + 1);
    if (r.status === 'failed') {
      failed = true;
      stop = `an earlier step failed: ${stepName(a, i + 1)}: ${a.error ?? ''}`;
    }
  }
  return { failed, interrupted };
}
