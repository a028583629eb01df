/** Loopback addresses for a large lab: beyond one /24, so 1,000 hosts each get their own 127.A.B.C. */
import { randomInt } from 'node:crypto';
import { portFree } from '../net.ts';

/** Hosts per /24 block (.1 to .250), as the per-node lab allocates them. */
const PER_BLOCK = 250;
export const MAX_FRONT_HOSTS = 250 * PER_BLOCK;

/** `count` addresses 127.A.B.1.., continuing into 127.A.B+1, …; A.B drawn at random and every port checked free. */
export async function allocateAddresses(count: number, ports: number[]): Promise<string[]> {
  if (!Number.isInteger(count) || count < 1 || count > MAX_FRONT_HOSTS)
    throw new RangeError(`cannot allocate ${count} loopback addresses`);
  const blocks = Math.ceil(count / PER_BLOCK);
  for (let attempt = 0; attempt < 20; attempt++) {
    const a = randomInt(16, 250);
    const b = randomInt(1, 255 - blocks);
    const addrs = Array.from(
      { length: count },
      (_, i) => `127.${a}.${b + Math.floor(i / PER_BLOCK)}.${(i % PER_BLOCK) + 1}`,
    );
    let free = true;
    // in slices: thousands of bind attempts at once would only queue in the kernel
    for (let i = 0; free && i < addrs.length; i += 200) {
      const checks = await Promise.all(addrs.slice(i, i + 200).flatMap((x) => ports.map((p) => portFree(x, p))));
      free = checks.every(Boolean);
    }
    if (free) return addrs;
  }
  throw new Error(`no free range of ${count} loopback addresses found after 20 attempts`);
}
