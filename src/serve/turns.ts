/**
 * Turns for serve's password checks (scrypt): one queue per client address, taken in turn, so a client that guesses
 * never costs another its answer. A client whose password was right goes first, one that never failed next, one that
 * guessed wrong last; every queue and every memory here is bounded, whatever number of addresses a client rotates over.
 */
import { isIPv4, isIPv6 } from 'node:net';

export interface TurnLimits {
  /** Checks running at once (each on a thread of libuv's pool). */
  atOnce: number;
  /** Checks one client may have waiting: more are refused at once. */
  perClient: number;
  /** Checks waiting in all: a client that failed less takes the place of one that failed more. */
  waiting: number;
  /** Clients remembered as trusted or failing (the oldest are forgotten first). */
  known: number;
}

export const TURN_LIMITS: TurnLimits = { atOnce: 2, perClient: 4, waiting: 256, known: 4096 };

export interface Turns {
  /** Runs `check` when the client's turn comes; `refused` when no place is left for it. */
  take(client: string, check: () => Promise<boolean>): Promise<boolean>;
  /** How many clients are remembered (waiting, trusted or failing): bounded by the limits. */
  remembered(): number;
}

/** The client an address stands for: an IPv4 address itself, an IPv6 address its /64 (one host holds a whole /64). */
export function clientOf(address: string | undefined): string {
  const a = (address ?? '').replace(/%.*$/, '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (isIPv4(a) || !isIPv6(a)) return a;
  const [head, tail] = a.toLowerCase().split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** A map that forgets its oldest entry beyond `size`. */
function recent<V>(size: number): Map<string, V> & { put(k: string, v: V): void } {
  const m = new Map<string, V>() as Map<string, V> & { put(k: string, v: V): void };
  m.put = (k, v) => {
    m.delete(k);
    if (m.size >= size) m.delete(m.keys().next().value!);
    m.set(k, v);
  };
  return m;
}

interface Waiting {
  start(): void;
  refuse(): void;
}

export function fairTurns(limits: TurnLimits = TURN_LIMITS): Turns {
  const queues = new Map<string, Waiting[]>();
  const trusted = recent<true>(limits.known);
  const failures = recent<number>(limits.known);
  let running = 0;
  let waiting = 0;
  // lower goes first: right before, never failed, failed (the more failures, the later)
  const rank = (c: string): number => (trusted.has(c) ? 0 : 1 + (failures.get(c) ?? 0));

  const pick = (best: (r: number, seen: number) => boolean): string | undefined => {
    let chosen: string | undefined;
    let at = 0;
    for (const c of queues.keys()) {
      const r = rank(c);
      if (chosen === undefined || best(r, at)) [chosen, at] = [c, r];
    }
    return chosen;
  };
  const next = (): Waiting | undefined => {
    // the first of the best rank in queue order; its queue then goes to the back (turns)
    const c = pick((r, seen) => r < seen);
    if (c === undefined) return undefined;
    const q = queues.get(c)!;
    const w = q.shift()!;
    waiting--;
    queues.delete(c);
    if (q.length) queues.set(c, q);
    return w;
  };
  const pump = (): void => {
    while (running < limits.atOnce) {
      const w = next();
      if (!w) return;
      running++;
      w.start();
    }
  };
  // a full queue makes room for a better-ranked client by refusing the newest wait of the worst-ranked one
  const makeRoom = (rankOfNew: number): boolean => {
    const worst = pick((r, seen) => r >= seen);
    if (worst === undefined || rank(worst) <= rankOfNew) return false;
    const q = queues.get(worst)!;
    q.pop()!.refuse();
    waiting--;
    if (!q.length) queues.delete(worst);
    return true;
  };
  const judged = (c: string, ok: boolean): void => {
    if (ok) {
      trusted.put(c, true);
      failures.delete(c);
    } else {
      trusted.delete(c);
      failures.put(c, (failures.get(c) ?? 0) + 1);
    }
  };

  return {
    remembered: () => queues.size + trusted.size + failures.size,
    take: (client, check) =>
      new Promise<boolean>((resolve, reject) => {
        const q = queues.get(client) ?? [];
        if (q.length >= limits.perClient) return resolve(false);
        if (waiting >= limits.waiting && !makeRoom(rank(client))) return resolve(false);
        q.push({
          start: () =>
            check()
              .then((ok) => {
                judged(client, ok);
                resolve(ok);
              }, reject)
              .finally(() => {
                running--;
                pump();
              }),
          refuse: () => resolve(false),
        });
        waiting++;
        queues.set(client, q);
        pump();
      }),
  };
}
