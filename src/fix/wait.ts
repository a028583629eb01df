/** The one wait: look until a condition holds or the deadline passes, keeping the cause of the last miss. */
import { causeAfter, Interrupted, NO_ANSWER, pause, type Deadline } from '../base/deadline.ts';

/** What one look found: the condition holds (with what it read), or why not yet and whether the look waited itself. */
export type Look<T> = { holds: true; value: T } | { holds: false; why: string; waited?: boolean };

/** The condition held (with its value), or the deadline passed first (with the last cause). */
export type WaitOutcome<T> = { holds: true; value: T } | { holds: false; cause: string };

export interface WaitOptions {
  sleep(ms: number): Promise<void>;
  /** The pause between looks, skipped after a look that waited server-side. */
  pollMs: number;
  /** Ends the pause between looks with Interrupted. */
  signal?: AbortSignal;
  /** The cause to report when no look has told one yet. */
  initial?: string;
}

/**
 * Looks until the condition holds or `deadline` has passed. A look that throws is a miss whose cause is kept (a
 * deadline that cut a look short never hides an earlier real cause); Interrupted (Ctrl-C) ends the wait at once.
 */
export async function waitUntil<T>(
  deadline: Deadline,
  look: () => Promise<Look<T>>,
  o: WaitOptions,
): Promise<WaitOutcome<T>> {
  let cause = o.initial ?? NO_ANSWER;
  for (;;) {
    let waited = false;
    try {
      const seen = await look();
      if (seen.holds) return seen;
      cause = seen.why;
      waited = seen.waited === true;
    } catch (err) {
      if (err instanceof Interrupted) throw err;
      cause = causeAfter(err, cause);
    }
    if (deadline.expired()) return { holds: false, cause };
    if (!waited) await pause(o.sleep, o.pollMs, o.signal);
  }
}
