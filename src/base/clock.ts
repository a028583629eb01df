/**
 * Time and chance as a run sees them: the one place below the command line that reads the system clock. The layers
 * take a Clock from their deps object, so a test can replace it.
 */
export interface Clock {
  /** Wall-clock milliseconds (Date.now): report times, lease expiry. It may jump (NTP, an operator). */
  now(): number;
  /** Monotonic milliseconds, from an arbitrary origin: durations, waits, retry times; never goes back. */
  monotonic(): number;
  /** A number in [0, 1): jitter. */
  random(): number;
  /** Resolves after ms, or at once when `signal` is aborted (its timer cleared: nothing keeps the process up). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done);
  });
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  random: () => Math.random(),
  sleep,
};

/** The system clock with the entries a caller replaced. */
export const clockOf = (given: Partial<Clock> = {}): Clock => ({
  now: given.now ?? systemClock.now,
  monotonic: given.monotonic ?? systemClock.monotonic,
  random: given.random ?? systemClock.random,
  sleep: given.sleep ?? systemClock.sleep,
});
