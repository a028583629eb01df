/**
 * `listening: PORT` or `ADDRESS:PORT`: a TCP socket in LISTEN state there, from the kernel's socket tables
 * (`/proc/net/tcp`, `tcp6`), read by the batch's one `head`: no `ss` or `netstat` on the host.
 */

// no node:net here (the judging side starts nothing): an address checked by its form, IPv6 by the URL parser
function isIP(a: string): 0 | 4 | 6 {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(a)) return a.split('.').every((o) => Number(o) <= 255) ? 4 : 0;
  if (!a.includes(':')) return 0;
  try {
    return new URL(`http://[${a}]/`).hostname ? 6 : 0;
  } catch {
    return 0;
  }
}

export interface ListenWant {
  port: number;
  /** Absent: any address. */
  address?: string;
}

/** `9200`, `127.0.0.1:9200`, `[::1]:9200`; undefined when it is none of them. */
export function parseListen(v: string | number): ListenWant | undefined {
  const s = String(v);
  const m = /^(?:(\d{1,3}(?:\.\d{1,3}){3})|\[([0-9A-Fa-f:.]+)\]|\*)?:?(\d{1,5})$/.exec(s);
  if (!m || (m[0].includes(':') === false && (m[1] || m[2]))) return undefined;
  const port = Number(m[3]);
  if (!(port >= 1 && port <= 65535)) return undefined;
  const address = m[1] ?? m[2];
  if (address !== undefined && !isIP(address)) return undefined;
  return address === undefined ? { port } : { port, address: address.toLowerCase() };
}

/** The 16 bytes of an IPv6 address (an IPv4 one as `::ffff:a.b.c.d`). */
function bytesOf(address: string): Buffer {
  if (isIP(address) === 4)
    return Buffer.from([...Array<number>(10).fill(0), 0xff, 0xff, ...address.split('.').map(Number)]);
  const [head, tail = ''] = address.includes('::') ? address.split('::') : [address, undefined];
  const part = (s: string) => (s ? s.split(':') : []);
  const words = (p: string[]) =>
    p.flatMap((w) =>
      w.includes('.')
        ? [
            (Number(w.split('.')[0]) << 8) | Number(w.split('.')[1]),
            (Number(w.split('.')[2]) << 8) | Number(w.split('.')[3]),
          ]
        : [parseInt(w, 16)],
    );
  const h = words(part(head!));
  const t = tail === undefined ? [] : words(part(tail));
  const all = tail === undefined ? h : [...h, ...Array<number>(8 - h.length - t.length).fill(0), ...t];
  const b = Buffer.alloc(16);
  all.forEach((w, i) => b.writeUInt16BE(w, i * 2));
  return b;
}

/**
 * The kernel prints each 32-bit word of an address in the host's byte order (`0100007F` is 127.0.0.1 on x86 and arm,
 * `7F000001` on s390x); both readings are kept, so the table matches on either.
 */
function wordsBothWays(hex: string): Buffer[] {
  const be = Buffer.from(hex, 'hex');
  const le = Buffer.alloc(be.length);
  for (let i = 0; i < be.length; i += 4) le.writeUInt32BE(be.readUInt32LE(i), i);
  return [le, be];
}

/** Every LISTEN socket (state 0A) of `tcp` and `tcp6`, addresses as 16 bytes (IPv4 mapped), both byte orders. */
export function parseListeners(tables: readonly string[]): Array<{ port: number; addresses: Buffer[] }> {
  const out: Array<{ port: number; addresses: Buffer[] }> = [];
  for (const table of tables)
    for (const line of table.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      const m = /^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{32}):([0-9A-Fa-f]{4})$/.exec(f[1] ?? '');
      if (!m || f[3] !== '0A') continue;
      const addresses = wordsBothWays(m[1]!).map((b) =>
        b.length === 4 ? Buffer.concat([Buffer.alloc(10), Buffer.from([0xff, 0xff]), b]) : b,
      );
      out.push({ port: parseInt(m[2]!, 16), addresses });
    }
  return out;
}

const ANY4 = bytesOf('0.0.0.0');
const ANY6 = Buffer.alloc(16);

/** True when a listener takes connections there: the port, on that address or on every address (0.0.0.0, ::). */
export function isListening(listeners: ReturnType<typeof parseListeners>, want: ListenWant): boolean {
  const target = want.address === undefined ? undefined : bytesOf(want.address);
  const v4 = target !== undefined && isIP(want.address!) === 4;
  return listeners.some(
    (l) =>
      l.port === want.port &&
      (target === undefined || l.addresses.some((a) => a.equals(target) || a.equals(ANY6) || (v4 && a.equals(ANY4)))),
  );
}
