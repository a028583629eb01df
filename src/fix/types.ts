/** What every fix step sees: one cluster's API, its hosts' transports, the clock and where backups go. */
import type { Action, ActionOf, ActionStatus, ActionType, ClusterReport } from '../model/index.ts';
import type { ClusterApi } from '../cluster/types.ts';
import type { Transport } from '../transport/types.ts';
import type { BackupStore } from '../base/backup.ts';
import type { AllocationOutcome } from './outcome.ts';

export type StepStatus = Exclude<ActionStatus, 'planned'>;

export interface StepResult {
  status: StepStatus;
  /** Why it was skipped, or what it found when done. */
  reason?: string;
  /** Why it failed (already redacted). */
  error?: string;
  backup?: string;
  output?: string;
  /** A rolling restart that held the allocation setting: whether it was put back. */
  allocation?: AllocationOutcome;
  /** A failed rolling restart: how the cluster was left. */
  left?: string;
}

export interface StepEnv {
  api: ClusterApi;
  /** The cluster's nodes as the audit saw them (host ↔ address/name). */
  nodes: ClusterReport['nodes'];
  /** The transport to an inventory host, opened on first use and closed by the caller. */
  transport(host: string): Promise<Transport>;
  backup: BackupStore;
  /** Seconds per remote command and REST request (--timeout). */
  timeout: number;
  /** Milliseconds between polls while waiting for a node or shards. */
  pollMs: number;
  now(): number;
  sleep(ms: number): Promise<void>;
  /** Ctrl-C: waits end at once, the allocation setting is restored, the step fails. */
  signal?: AbortSignal;
  /** A second Ctrl-C: the wait for a restarting node before the restore ends at once. */
  urgent?: AbortSignal;
  /** --allow-yellow: a settled yellow is as good as green. */
  allowYellow?: boolean;
  /** Unassigned shards at pre-flight. */
  baselineUnassigned?: number;
  /** Told on every poll of a rolling restart. */
  onProgress?: (p: WaitProgress) => void;
}

export type WaitPhase = 'allocation' | 'flush' | 'restart' | 'rejoin' | 'rejoin-before-restore' | 'restore' | 'settle';

export interface WaitProgress {
  node: string;
  phase: WaitPhase;
  elapsedMs: number;
  deadlineMs?: number;
  initializing?: number;
  unassigned?: number;
}

export type Step<A extends Action = Action> = (a: A, env: StepEnv) => Promise<StepResult>;

/** The step table: each action kind's step takes exactly that kind. */
export type StepTable = { [K in ActionType]: Step<ActionOf<K>> };

/** Waits (node rejoin, shard placement) end this long after they start: 5× --timeout. */
export const WAIT_FACTOR = 5;
