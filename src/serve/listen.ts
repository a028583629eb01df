/** Where serve listens, and what it needs there: loopback is local; any other address needs TLS and credentials. */
import { isIP } from 'node:net';
import { UsageError } from '../base/errors.ts';

export interface ListenAddress {
  host: string;
  port: number;
}

/** `HOST:PORT` or `[V6]:PORT`; the port may be 0 (any free one, said at start). */
export function parseListen(text: string): ListenAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text);
  const host = m?.[1] ?? m?.[2];
  const port = Number(m?.[3]);
  if (!m || !host || port > 65535 || (m[1] !== undefined && isIP(m[1]) !== 6))
    throw new UsageError(`--listen: '${text}' is not HOST:PORT (e.g. 127.0.0.1:9720, [::1]:9720, 0.0.0.0:9720)`);
  // a name is resolved by the system's resolver, which a hosts file can point anywhere: localhost binds 127.0.0.1
  return { host: host === 'localhost' ? '127.0.0.1' : host, port };
}

/** 127.0.0.0/8, ::1 and localhost: only this machine reaches them. */
export const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));

/** Refuses, before anything starts, an address others can reach without TLS and credentials. */
export function checkExposure(a: ListenAddress, o: { tls: boolean; auth: boolean }): void {
  if (isLoopback(a.host)) return;
  const missing = [...(o.tls ? [] : ['--tls-cert and --tls-key']), ...(o.auth ? [] : ['--auth-file'])];
  if (missing.length)
    throw new UsageError(
      `--listen ${a.host}: other machines can reach this address, so serve needs ${missing.join(' and ')} there (or listen on 127.0.0.1)`,
    );
}
