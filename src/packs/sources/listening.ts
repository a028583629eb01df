/** `listening: PORT` or `ADDRESS:PORT`: a TCP socket listens there, from the kernel's socket tables (no program). */
import { shQuote as shq } from '../../transport/command.ts';
import * as v from 'valibot';
import { isListening, parseListen, parseListeners } from '../host/listening.ts';
import { err, hostRead, ok } from '../read/values.ts';
import type { SourceKind } from './kind.ts';

export const listening: SourceKind<'listening'> = {
  doc: {
    write: '`listening: PORT` or `listening: ADDRESS:PORT`',
    value:
      "true when a TCP socket listens on that port (on that address, or on every address: `0.0.0.0`, `::`), from the kernel's socket tables (`/proc/net/tcp`, `tcp6`); else false",
  },
  shape: v.union([
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(65535)),
    v.pipe(
      v.string(),
      v.regex(/^(\d{1,3}(\.\d{1,3}){3}:|\[[0-9A-Fa-f:.]+\]:)?\d{1,5}$/),
      v.description('PORT, A.B.C.D:PORT or [V6]:PORT'),
    ),
  ]),
  load: (r, at, x) => {
    const want = typeof x === 'number' || typeof x === 'string' ? parseListen(x) : undefined;
    if (!want) return r.bad(at, `listening ${JSON.stringify(x)} is not a port (9200), A.B.C.D:PORT or [V6]:PORT`);
    return { kind: 'listening', ...want };
  },
  host: {
    key: () => 'all',
    lines: (_, __, tag) => [`small ${shq(tag('tcp'))} "$P"/net/tcp`, `small ${shq(tag('tcp6'))} "$P"/net/tcp6`],
  },
  read: (s, c) => {
    const tables: string[] = [];
    for (const t of ['tcp', 'tcp6']) {
      const r = hostRead(c, 'listening', t);
      if (!r) return err('the socket tables were not read (the batched command did not finish)');
      if (r.error) return err(r.error);
      // no tcp6 table: a kernel without IPv6
      if (r.text !== null) tables.push(r.text);
      else if (t === 'tcp') return err('the host has no /proc/net/tcp');
    }
    return ok(
      isListening(
        parseListeners(tables),
        s.address === undefined ? { port: s.port } : { port: s.port, address: s.address },
      ),
    );
  },
};
