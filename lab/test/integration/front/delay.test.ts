import t from 'tap';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { link, type LinkStats } from '../../../src/front/delay.ts';

/** An echo server behind the delay, on a port of 127.0.0.1 the kernel picks; resolves the link's figures per connection. */
async function delayedEcho(rttMs: number): Promise<{ port: number; stats: LinkStats[]; close(): void }> {
  const echo = createServer((s) => s.pipe(s));
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  const echoPort = (echo.address() as { port: number }).port;
  const stats: LinkStats[] = [];
  const front: Server = createServer((client) => {
    void link(client, () => connect(echoPort, '127.0.0.1'), rttMs).then((s) => stats.push(s));
  });
  await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
  return {
    port: (front.address() as { port: number }).port,
    stats,
    close: () => {
      front.close();
      echo.close();
    },
  };
}

/** Sends `data`, waits until the same number of bytes came back; resolves what came back and how long it took. */
async function roundTrip(sock: Socket, data: Buffer): Promise<{ back: Buffer; ms: number }> {
  const t0 = performance.now();
  const parts: Buffer[] = [];
  let got = 0;
  const done = new Promise<void>((resolve) => {
    const onData = (d: Buffer) => {
      parts.push(d);
      got += d.length;
      if (got >= data.length) {
        sock.removeListener('data', onData);
        resolve();
      }
    };
    sock.on('data', onData);
  });
  sock.write(data);
  await done;
  return { back: Buffer.concat(parts), ms: performance.now() - t0 };
}

t.test('each direction is delayed by half the round-trip time; bytes and order arrive intact', async (t) => {
  const rtt = 80;
  const srv = await delayedEcho(rtt);
  t.teardown(srv.close);
  const sock = connect(srv.port, '127.0.0.1');
  await once(sock, 'connect');
  // many chunks in one go: each keeps its place
  const data = Buffer.concat(Array.from({ length: 50 }, (_, i) => Buffer.concat([Buffer.from([i]), randomBytes(997)])));
  const first = await roundTrip(sock, data);
  t.same(first.back, data, 'every byte back, in order');
  // the first exchange also waits for the server side to open (half a round trip after the connect)
  t.ok(first.ms >= rtt - 2, `first round trip took ${first.ms.toFixed(1)} ms, at least ${rtt}`);
  const second = await roundTrip(sock, Buffer.from('ping'));
  t.equal(second.back.toString(), 'ping');
  t.ok(second.ms >= rtt - 2, `a later round trip took ${second.ms.toFixed(1)} ms, at least ${rtt}`);
  // the goodbye crosses the network too: our end reaches the server, and its end comes back, a round trip later
  const endAt = performance.now();
  sock.end();
  await once(sock, 'close');
  const goodbye = performance.now() - endAt;
  t.ok(goodbye >= rtt - 2, `the server's end came back ${goodbye.toFixed(1)} ms after ours, at least ${rtt}`);
  while (srv.stats.length < 1) await new Promise((r) => setTimeout(r, 10));
  const s = srv.stats[0]!;
  t.equal(s.up, data.length + 4, 'bytes client to server counted');
  t.equal(s.down, data.length + 4, 'bytes server to client counted');
  t.equal(s.roundTrips, 2, 'two client flights answered: two round trips');
});

t.test('no delay: data passes through at once and the end reaches the server', async (t) => {
  const srv = await delayedEcho(0);
  t.teardown(srv.close);
  const sock = connect(srv.port, '127.0.0.1');
  await once(sock, 'connect');
  const r = await roundTrip(sock, Buffer.from('hello'));
  t.equal(r.back.toString(), 'hello');
  sock.end();
  // the echo server ends when our end reaches it: the socket closes only if the end went through
  await once(sock, 'close');
});
