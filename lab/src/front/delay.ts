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

/** One direction: chunks go out `delayMs` after they came in, in order; the end too, `delayMs` after it came. */
function delayedPipe(from: Duplex, to: () => Duplex | null, delayMs: number, onChunk: (n: number) => void): void {
  // null is the end: it travels like a chunk, so the other side learns of it half a round trip later
  const queue: Array<{ due: number; chunk: Buffer | null }> = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = (): void => {
    timer = null;
    const out = to();
    const now = performance.now();
    while (out && queue.length && queue[0]!.due <= now + 0.5) {
      const { chunk } = queue.shift()!;
      if (out.destroyed) continue;
      if (chunk) out.write(chunk);
      else out.end();
    }
    if (queue.length) timer = setTimeout(flush, Math.max(1, queue[0]!.due - now));
  };
  const send = (chunk: Buffer | null): void => {
    const out = to();
    if (delayMs <= 0 && !queue.length && out) {
      if (!out.destroyed) chunk ? out.write(chunk) : out.end();
      return;
    }
    queue.push({ due: performance.now() + delayMs, chunk });
    timer ??= setTimeout(flush, delayMs);
  };
  from.on('data', (chunk: Buffer) => {
    onChunk(chunk.length);
    send(chunk);
  });
  from.once('end', () => send(null));
}

/**
 * Joins the client to the server `open()` returns, through the delay. Either side failing or closing ends the
 * other once what it still has to receive has gone. Resolves with the connection's figures when both have closed.
 */
export function link(client: Duplex, open: () => Duplex, rttMs: number): Promise<LinkStats> {
  const startedAt = performance.now();
  // the client's end travels to the server like its bytes, and the server's end comes back the same way: without
  // this, Node answers the client's end at once, and a client waiting for the close saves a round trip it would not
  client.allowHalfOpen = true;
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
