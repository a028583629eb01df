/**
 * serve's cycles: audit, keep the result, wait --interval (with jitter), again. One cycle at a time, never two at
 * once; a scrape reads the last completed cycle and never starts one.
 */
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
  random: () => number;
  /** Monotonic ms. */
  now: () => number;
  wallNow: () => number;
  /** Resolves after ms, or at once when `stop` is aborted. */
  sleep: (ms: number, stop: AbortSignal) => Promise<void>;
  /** Told after every cycle, in order (the history, the log). */
  onCycle?: (c: Cycle, previous: Cycle | null) => Promise<void> | void;
  onError?: (err: unknown) => void;
}

/** The wait between the end of one cycle and the start of the next. */
export const waitMs = (o: Pick<CycleOptions, 'intervalMs' | 'jitter' | 'random'>): number =>
  Math.max(0, o.intervalMs * (1 + o.jitter * (o.random() - 0.5)));

/** Runs cycles until `stop` is aborted; resolves once the cycle under way has ended. */
export async function runCycles(o: CycleOptions, state: CycleState, stop: AbortSignal): Promise<void> {
  while (!stop.aborted) {
    const started = o.now();
    try {
      const report = await o.audit();
      const cycle: Cycle = { report, finishedAt: o.wallNow(), durationSeconds: (o.now() - started) / 1000 };
      const previous = state.last;
      state.last = cycle;
      state.cycles += 1;
      state.lastError = null;
      state.lastOkAt = o.now();
      await o.onCycle?.(cycle, previous);
    } catch (err) {
      state.lastError = (err as Error).message;
      state.failures += 1;
      state.lastFailedAt = o.now();
      o.onError?.(err);
    }
    if (!stop.aborted) await o.sleep(waitMs(o), stop);
  }
}

/** A sleep that a stop ends early. */
export const abortableSleep = (ms: number, stop: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (stop.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      stop.removeEventListener('abort', done);
      resolve();
    }
    stop.addEventListener('abort', done);
  });
