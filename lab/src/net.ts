import { createServer, connect } from 'node:net';
import { randomInt } from 'node:crypto';
import { execa } from 'execa';

/** True when nothing listens on address:port and we may bind it. */
export function portFree(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ host: address, port, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/**
 * N loopback addresses 127.A.B.1..N, with A.B drawn at random so that labs and
 * test files running at the same time never share an address.
 */
export async function allocateLoopback(count: number, ports: number[]): Promise<string[]> {
  if (count < 1 || count > 250) throw new RangeError(`cannot allocate ${count} loopback addresses`);
  for (let attempt = 0; attempt < 50; attempt++) {
    const prefix = `127.${randomInt(16, 250)}.${randomInt(1, 250)}`;
    const addrs = Array.from({ length: count }, (_, i) => `${prefix}.${i + 1}`);
    const checks = await Promise.all(addrs.flatMap((a) => ports.map((p) => portFree(a, p))));
    if (checks.every(Boolean)) return addrs;
  }
  throw new Error('no free loopback block found after 50 attempts');
}

/** Resolves once address:port sends data starting with `banner` (or accepts, when banner is empty). */
export async function waitForListener(address: string, port: number, timeoutMs: number, banner = ''): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const sock = connect({ host: address, port });
      const done = (v: boolean) => {
        sock.destroy();
        resolve(v);
      };
      sock.setTimeout(1000, () => done(false));
      sock.once('error', () => done(false));
      sock.once('connect', () => {
        if (!banner) done(true);
      });
      sock.once('data', (d) => done(d.toString('latin1').startsWith(banner)));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`nothing answered on ${address}:${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** waitForListener from inside a network namespace this process cannot reach (bash's /dev/tcp, run there). */
export async function waitForBannerIn(
  ns: string,
  address: string,
  port: number,
  timeoutMs: number,
  banner: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const probe = `exec 3<>/dev/tcp/${address}/${port} && head -c ${banner.length} <&3`;
  for (;;) {
    const r = await execa('ip', ['netns', 'exec', ns, 'timeout', '2', 'bash', '-c', probe], { reject: false });
    if (r.exitCode === 0 && r.stdout.startsWith(banner)) return;
    if (Date.now() > deadline)
      throw new Error(`nothing answered on ${address}:${port} in namespace ${ns} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
