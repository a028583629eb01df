/** Deadlines that a stalled peer cannot outlive: a request's whole answer, a wait's every poll. */
import { systemClock } from './clock.ts';

/** Work that did not settle in time; its message says what and how long. */
export class DeadlineError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeadlineError';
  }
}

/** What a wait says before any attempt has told it anything. */
export const NO_ANSWER = 'no answer yet';

/**
 * The cause a wait reports after a failed attempt: a deadline that cut an attempt short never hides the real cause an
 * earlier attempt gave (connection refused, TLS, DNS); the last attempt often got no time at all.
 */
export function causeAfter(err: unknown, last: string): string {
  if (err instanceof DeadlineError && last !== NO_ANSWER && last !== '') return last;
  return err instanceof Error ? err.message : String(err);
}

// Node's timers overflow above 2^31-1 ms and then fire at once
const MAX_TIMER = 2 ** 31 - 1;

/**
 * Settles as `work` does, or rejects with DeadlineError after `ms`; `onExpire` may abort the abandoned work.
 * The timer is always cleared, so a finished run does not wait for it.
 */
export function within<T>(work: Promise<T>, ms: number, what: string, onExpire?: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        try {
          onExpire?.();
        } finally {
          reject(new DeadlineError(`${what}: no complete answer within ${fmt(ms)}`));
        }
      },
      Math.min(Math.max(0, ms), MAX_TIMER),
    );
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

// whole or tenth seconds from one second up: 4999 ms reads 5s
const fmt = (ms: number): string => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10}s`);

/** Ctrl-C reached a wait: the caller restores what it changed, then stops. */
export class Interrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'Interrupted';
  }
}

/** An overall deadline for a wait made of several requests: each one may only use the time that is left. */
export interface Deadline {
  readonly at: number;
  /** Milliseconds left, never below 0. */
  left(): number;
  expired(): boolean;
  /** `work` bounded by the time left (a stalled answer counts against the wait), or Interrupted on the signal. */
  race<T>(work: Promise<T>, what: string, onExpire?: () => void): Promise<T>;
}

export function deadline(totalMs: number, now: () => number = systemClock.now, signal?: AbortSignal): Deadline {
  const at = now() + totalMs;
  const left = (): number => Math.max(0, at - now());
  return {
    at,
    left,
    expired: () => left() <= 0,
    race<T>(work: Promise<T>, what: string, onExpire?: () => void): Promise<T> {
      if (!signal) return within(work, left(), what, onExpire);
      if (signal.aborted) return Promise.reject(new Interrupted());
      let onAbort = (): void => undefined;
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(new Interrupted());
        signal.addEventListener('abort', onAbort, { once: true });
      });
      return Promise.race([within(work, left(), what, onExpire), aborted]).finally(() =>
        signal.removeEventListener('abort', onAbort),
      );
    },
  };
}

/** A sleep that ends early on the signal, rejecting with Interrupted (the clock's sleep is told, so its timer ends too). */
export function pause(
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
  ms: number,
  signal?: AbortSignal,
): Promise<void> {
  if (!signal) return sleep(ms);
  if (signal.aborted) return Promise.reject(new Interrupted());
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(new Interrupted());
    signal.addEventListener('abort', onAbort, { once: true });
    sleep(ms, signal)
      .then(resolve, reject)
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Aborted when any of the given signals is (none given: undefined). */
export function anySignal(signals: Array<AbortSignal | undefined>): AbortSignal | undefined {
  const given = signals.filter((s) => s !== undefined);
  return given.length > 1 ? AbortSignal.any(given) : given[0];
}
