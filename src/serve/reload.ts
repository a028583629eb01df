/**
 * serve's setup (the inventory read, its hosts' routes) and its replacement on SIGHUP. A reload and a cycle never run
 * at once: SIGHUPs during a cycle make one reload after it, before the next cycle; one during a reload makes one more
 * after it (the file may have changed since it was read). A reload that fails keeps the setup in force.
 */
export interface Reloading<S> {
  /** The setup in force. */
  current(): S;
  /** A SIGHUP: a reload when no cycle runs; however many come meanwhile, one is waiting at most. */
  request(): void;
  /** Runs a cycle with the setup in force; a reload asked for meanwhile waits for it. */
  cycle<T>(run: (s: S) => Promise<T>): Promise<T>;
  /** No more reloads; resolves once the cycle or reload under way has ended. */
  close(): Promise<void>;
}

export interface ReloadOptions<S> {
  /** Reads the setup again. */
  load(): Promise<S>;
  /** The new setup is in force: retire the old one. */
  swap(next: S, prev: S): Promise<void>;
  /** The reload failed (the setup in force stays), or serve stopped before its result could be used. */
  failed(err: unknown): void;
  /** A setup loaded when serve had stopped meanwhile: never in force. */
  discard(s: S): Promise<void>;
}

export function reloading<S>(first: S, o: ReloadOptions<S>): Reloading<S> {
  let current = first;
  let wanted = false;
  let closed = false;
  // one turn at a time, a cycle or a reload, in the order asked
  let tail: Promise<unknown> = Promise.resolve();
  const turn = <T>(run: () => Promise<T>): Promise<T> => {
    const p = tail.then(run);
    tail = p.catch(() => undefined);
    return p;
  };
  const reload = async (): Promise<void> => {
    wanted = false;
    if (closed) return;
    let next: S;
    try {
      next = await o.load();
    } catch (err) {
      return o.failed(err);
    }
    if (closed) return o.discard(next);
    const prev = current;
    current = next;
    await o.swap(next, prev);
  };
  return {
    current: () => current,
    request() {
      if (closed || wanted) return;
      wanted = true;
      void turn(reload).catch(o.failed);
    },
    cycle: (run) => turn(() => run(current)),
    async close() {
      closed = true;
      await tail;
    },
  };
}
