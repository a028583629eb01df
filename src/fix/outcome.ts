/** What fix did, as returned by applying: plain data beside the plan, which stays untouched. report.ts merges the two. */
import type { AllocationSetting } from './allocation.ts';

/** Whether a rolling restart put the allocation setting (ALLOCATION_KEY) back after holding it at `primaries`. */
export interface AllocationOutcome {
  restored: boolean;
  /** What was there before, and is there again when restored. */
  setting: AllocationSetting;
  /** Why it could not be restored. */
  error?: string;
  /** What the cluster had after the restore, as read back (absent when it could not be read). */
  left?: AllocationSetting;
}

/** What a step that ran reported besides its status. */
interface Ran {
  /** The step's number in the order the cluster's steps ran (the elected manager's restart moves last). */
  step: number;
  /** What it found when done, or why it had nothing to do. */
  reason?: string;
  /** Local path of the saved old content of an edited file. */
  backup?: string;
  /** What the step showed (verify-shards: the shard table). */
  output?: string;
  /** A rolling restart of a data node: the allocation setting it held and put back. */
  allocation?: AllocationOutcome;
}

/** The step ran and did what it should. */
export interface DoneOutcome extends Ran {
  status: 'done';
}

/** The step ran and failed: the cluster's remaining steps were skipped. */
export interface FailedOutcome extends Ran {
  status: 'failed';
  /** Why (secrets redacted). */
  error: string;
  /** A failed rolling restart: how the cluster was left. */
  left?: string;
}

/**
 * Not done: the step found nothing to do (`nothing-to-do`), or it never ran because an earlier step of its cluster
 * failed (`earlier-failure`) or the run was stopped (`interrupted`).
 */
export type SkippedOutcome =
  | (Ran & { status: 'skipped'; cause: 'nothing-to-do' })
  | { status: 'skipped'; cause: 'earlier-failure' | 'interrupted'; step: number; reason: string };

/** Never ran: the cluster was refused, by its pre-flight or by its drift from a reviewed plan. */
export interface RefusedOutcome {
  status: 'refused';
  /** Its number in the run order, when the run reached it. */
  step?: number;
  reason: string;
}

/** What became of one planned action. */
export type ActionOutcome = DoneOutcome | FailedOutcome | SkippedOutcome | RefusedOutcome;

/** What fix did in one cluster. */
export interface ClusterOutcome {
  api_url: string;
  /** One per planned action, in the plan's order (`plannedActions`); empty when nothing was planned or decided. */
  actions: ActionOutcome[];
  /** Why nothing (more) was done here: the pre-flight, or each drift from the plan. */
  refused: string[];
  /** A step failed, or the cluster was refused. */
  failed: boolean;
  /** The run was stopped before every step of this cluster had run. */
  interrupted: boolean;
  /** The last allocation setting a rolling restart held here, and whether it was put back. */
  allocation?: AllocationOutcome;
  /** After a failed rolling restart: how the cluster was left. */
  left?: string;
}

/** What applying a plan did: one outcome per cluster of the plan, in its order. */
export interface ApplyOutcome {
  clusters: ClusterOutcome[];
  /** The run was stopped (Ctrl-C) before every step had run. */
  interrupted: boolean;
}

/** The outcome of a cluster where nothing ran (yet). */
export const untouched = (api_url: string): ClusterOutcome => ({
  api_url,
  actions: [],
  refused: [],
  failed: false,
  interrupted: false,
});
