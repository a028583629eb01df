/**
 * serve's cycles: audit, keep the result, wait --interval (with jitter), again. One cycle at a time, never two at
 * once; a scrape reads the last completed cycle and never starts one.
 */
import type { Clock } from '../base/clock.ts';
import type { Report } from '../model/index.ts';

export interface Cycle {
  report: Report;
  /** Wall-clock ms when it finished (for the report's readers), and how long it took. */
  finishedAt: number;
  durationSeconds: number;
}

export interface CycleState {
  /** The last completed cycle, or null before the first one ends. */
  last: Cycle | null;
  /** Cycles completed since start. */
  cycles: number;
  /** Why the last cycle could not complete (the one before it stays served). */
  lastError: string | null;
  /** Cycles that could not complete since start. */
  failures: number;
  /** Monotonic ms when the last cycle completed, and when the last one failed (null: none yet). */
  lastOkAt: number | null;
  lastFailedAt: number | null;
}

/** The state before any cycle has run. */
export const newCycleState = (): CycleState => ({
  last: null,
  cycles: 0,
  lastError: null,
  failures: 0,
  lastOkAt: null,
  lastFailedAt: null,
});

export interface CycleOptions {
  /** One audit of the fleet. */
  audit: () => Promise<Report>;
  intervalMs: number;
  /** Spread of each wait, 0..1: the wait is interval × (1 ± jitter/2). */
  jitter: number;
  /** Waits and durations are monotonic: a wall clock set back or forward changes only the report's times. */
  clock: Clock;
  /** Told after every cycle, in order (the history, the log). */
  onCycle?: (c: Cycle, previous: Cycle | null) => Promise<void> | void;
  onError?: (err: unknown) => void;
}

/** The wait between the end of one cycle and the start of the next. */
export const waitMs = (o: Pick<CycleOptions, 'intervalMs' | 'jitter'>, random: () => number): number =>
  Math.max(0, o.intervalMs * (1 + o.jitter * (random() - 0.5)));

/** Runs cycles until `stop` is aborted; resolves once the cycle under way has ended. */
export async function runCycles(o: CycleOptions, state: CycleState, stop: AbortSignal): Promise<void> {
  const { clock } = o;
  while (!stop.aborted) {
    const started = clock.monotonic();
    try {
      const report = await o.audit();
      const cycle: Cycle = { report, finishedAt: clock.now(), durationSeconds: (clock.monotonic() - started) / 1000 };
      const previous = state.last;
      state.last = cycle;
      state.cycles += 1;
      state.lastError = null;
      state.lastOkAt = clock.monotonic();
      await o.onCycle?.(cycle, previous);
    } catch (err) {
      state.lastError = (err as Error).message;
      state.failures += 1;
      state.lastFailedAt = clock.monotonic();
      o.onError?.(err);
    }
    if (!stop.aborted) await clock.sleep(waitMs(o, clock.random), stop);
  }
}
