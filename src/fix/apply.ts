/** One cluster's plan, in order, one step at a time; the first failure stops that cluster. */
import type { Action, ActionType, ClusterReport } from '../audit/types.ts';
import { redactText } from '../secrets.ts';
import { putDocument, putSettings, verifyShards } from './steps-api.ts';
import { editFile, removeCommand } from './steps-host.ts';
import { restartService } from './restart.ts';
import { errText, type Step, type StepEnv, type StepResult } from './types.ts';

export const STEPS: Record<ActionType, Step> = {
  'put-document': putDocument,
  'set-yaml': editFile,
  'set-hosts': editFile,
  'remove-plugin': removeCommand,
  'remove-keystore-entry': removeCommand,
  'restart-service': restartService,
  'put-settings': putSettings,
  'verify-shards': verifyShards,
};

/** The cluster's planned actions in seed order (checks are already in order, and so are their actions). */
export function plannedActions(c: ClusterReport): Action[] {
  return c.checks.flatMap((k) => k.actions.filter((a) => a.status === 'planned'));
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
  steps?: Partial<Record<ActionType, Step>>;
}

/** Mutates the actions' status/reason/error/backup; resolves to whether every step that ran succeeded. */
export async function applyCluster(c: ClusterReport, env: StepEnv, hooks: ApplyHooks = {}): Promise<{ failed: boolean; interrupted: boolean }> {
  const actions = plannedActions(c);
  let stop: string | null = null;
  let failed = false;
  let interrupted = false;
  for (const [i, a] of actions.entries()) {
    if (stop === null && hooks.signal?.aborted) {
      stop = 'interrupted: the run was stopped before this step';
      interrupted = true;
    }
    if (stop !== null) {
      record(a, { status: 'skipped', reason: stop });
      hooks.onStep?.(a, i + 1);
      continue;
    }
    const step = hooks.steps?.[a.type] ?? STEPS[a.type];
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
