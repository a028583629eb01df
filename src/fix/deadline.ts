/** An overall deadline for a wait: every request inside it counts against it, a stalled answer included. */
export class DeadlineExceeded extends Error {
  constructor(what: string) {
    super(what);
    this.name = 'DeadlineExceeded';
  }
}

export class Interrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'Interrupted';
  }
}

export interface Deadline {
  readonly at: number;
  left(): number;
  expired(): boolean;
  /** The promise, or DeadlineExceeded when the deadline (real time left) passes first, or Interrupted on the signal. */
  race<T>(p: Promise<T>, what: string): Promise<T>;
}

export function deadline(now: () => number, ms: number, signal?: AbortSignal): Deadline {
  const at = now() + ms;
  return {
    at,
    left: () => Math.max(0, at - now()),
    expired: () => now() >= at,
    race<T>(p: Promise<T>, what: string): Promise<T> {
      if (signal?.aborted) return Promise.reject(new Interrupted());
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new DeadlineExceeded(`${what}: no answer before the deadline`)), Math.max(0, at - now()));
        const onAbort = () => reject(new Interrupted());
        signal?.addEventListener('abort', onAbort, { once: true });
        p.then(resolve, reject).finally(() => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        });
      });
    },
  };
}

/** A sleep that ends early on the signal. */
export function pause(sleep: (ms: number) => Promise<void>, ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) return sleep(ms);
  if (signal.aborted) return Promise.reject(new Interrupted());
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(new Interrupted());
    signal.addEventListener('abort', onAbort, { once: true });
    sleep(ms).then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
