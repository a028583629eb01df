/** Time as a run sees it: the layers take it from their deps object, so a test can replace it. */
export interface Clock {
  /** Wall-clock milliseconds (Date.now): report times, lease expiry. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};
