/**
 * A user-space network between a client and a server: each direction is delayed by half the round-trip time,
 * in order, with no bandwidth limit (every chunk carries its arrival time; nothing is rate limited). The server
 * side is opened half a round trip after the client connected, when the client's first bytes would reach it.
 * It also counts the round trips: a flight from the client answered by a flight from the server.
 */
import type { Duplex } from 'node:stream';

export interface LinkStats {
  /** Bytes client→server and server→client. */
  up: number;
  down: number;
  /** Client flights answered by a server flight: the round trips the client waited for. */
  roundTrips: number;
  /** From accept to both sides closed. */
  ms: number;
}

/** One direction: chunks go out `delayMs` after they came in, in order; the end follows the last chunk. */
function delayedPipe(from: Duplex, to: () => Duplex | null, delayMs: number, onChunk: (n: number) => void): void {
  const queue: Array<{ due: number; chunk: Buffer }> = [];
  let timer: NodeJS.Timeout | null = null;
  let ended = false;
  const flush = (): void => {
    timer = null;
    const out = to();
    const now = performance.now();
    while (out && queue.length && queue[0]!.due <= now + 0.5) {
      const { chunk } = queue.shift()!;
      if (!out.destroyed) out.write(chunk);
    }
    if (queue.length) timer = setTimeout(flush, Math.max(1, queue[0]!.due - now));
    else if (ended && out && !out.destroyed) out.end();
  };
  from.on('data', (chunk: Buffer) => {
    onChunk(chunk.length);
    const out = to();
    if (delayMs <= 0 && !queue.length && out) {
      if (!out.destroyed) out.write(chunk);
      return;
    }
    queue.push({ due: performance.now() + delayMs, chunk });
    timer ??= setTimeout(flush, delayMs);
  });
  from.once('end', () => {
    ended = true;
    timer ??= setTimeout(flush, 0);
  });
}

/**
 * Joins the client to the server `open()` returns, through the delay. Either side failing or closing ends the
 * other once what it still has to receive has gone. Resolves with the connection's figures when both have closed.
 */
export function link(client: Duplex, open: () => Duplex, rttMs: number): Promise<LinkStats> {
  const startedAt = performance.now();
  const stats: LinkStats = { up: 0, down: 0, roundTrips: 0, ms: 0 };
  const half = rttMs / 2;
  let last: 'up' | 'down' | null = null;
  let server: Duplex | null = null;
  let open2 = 2;
  let resolveDone: (s: LinkStats) => void = () => undefined;
  const done = new Promise<LinkStats>((r) => (resolveDone = r));
  const closed = (): void => {
    if (--open2 > 0) return;
    stats.ms = Math.round(performance.now() - startedAt);
    resolveDone(stats);
  };
  const tie = (a: Duplex, b: () => Duplex | null): void => {
    a.once('error', () => b()?.destroy());
    a.once('close', () => {
      // a side that went away: the other is cut too, after what is still on its way to it
      setTimeout(() => b()?.destroy(), half + 2).unref();
      closed();
    });
  };
  delayedPipe(
    client,
    () => server,
    half,
    (n) => {
      stats.up += n;
      last = 'up';
    },
  );
  tie(client, () => server);
  const start = (): void => {
    // the client left before its first bytes arrived: no server to open
    if (client.destroyed) return closed();
    server = open();
    delayedPipe(
      server,
      () => client,
      half,
      (n) => {
        stats.down += n;
        if (last === 'up') stats.roundTrips++;
        last = 'down';
      },
    );
    tie(server, () => client);
  };
  if (half > 0) setTimeout(start, half);
  else start();
  return done;
}
