/** What smdoctor takes from one OpenSSH resolution (`ssh -G` or the subset parser): addresses, keys, host-key checks. */
import { userInfo } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { shellQuote } from './ssh-names.ts';
import type { SshOptionMap } from '../transport/ssh-config.ts';
import type { HostKeyPolicy } from '../transport/types.ts';

export const one = (m: SshOptionMap, k: string): string | undefined => m.get(k)?.[0];

export function expandPath(p: string, home: string, base: string): string {
  if (p === '~' || p.startsWith('~/')) return join(home, p.slice(1));
  return isAbsolute(p) ? p : resolve(base, p);
}

/** %-tokens substituted; in a command for the shell (ProxyCommand) each value is quoted, so none can run as code. */
export function tokens(
  s: string,
  o: { host: string; port: number; user: string; dest: string; home: string },
  shell = false,
): string {
  return s.replace(/%([%hprnud])/g, (_m, c: string) => {
    if (c === '%') return '%';
    const v = { h: o.host, p: String(o.port), r: o.user, n: o.dest, u: userInfo().username, d: o.home }[c]!;
    return shell ? shellQuote(v) : v;
  });
}

export function policyOf(v: string | undefined): HostKeyPolicy | undefined {
  if (v === 'accept-new') return 'accept-new';
  if (v === 'no' || v === 'off') return 'off';
  if (v === 'yes' || v === 'ask') return 'strict';
  return undefined;
}

export interface SshReading {
  host: string;
  port: number;
  user: string;
  /** Every IdentityFile, expanded, whether or not it exists. */
  identityFiles: string[];
  knownHostsFiles: string[];
  hostKeyChecking: HostKeyPolicy | undefined;
  identitiesOnly: boolean;
  proxyJump: string | undefined;
  proxyCommand: string | undefined;
  connectTimeout: number | undefined;
  serverAliveInterval: number;
}

/** One resolution read as smdoctor uses it; relative paths are taken against `cwd`, as ssh takes them. */
export function interpretSsh(m: SshOptionMap, o: { home: string; cwd: string; dest: string }): SshReading {
  const host = one(m, 'hostname') ?? o.dest;
  const port = Number(one(m, 'port') ?? 22);
  const user = one(m, 'user') ?? userInfo().username;
  const t = { host, port, user, dest: o.dest, home: o.home };
  const jump = one(m, 'proxyjump');
  const proxy = one(m, 'proxycommand');
  const ct = one(m, 'connecttimeout');
  const known = one(m, 'userknownhostsfile');
  return {
    host,
    port,
    user,
    identityFiles: (m.get('identityfile') ?? []).map((f) => expandPath(tokens(f, t), o.home, '/')),
    knownHostsFiles: known ? [expandPath(known.split(/\s+/)[0]!, o.home, '/')] : [],
    hostKeyChecking: policyOf(one(m, 'stricthostkeychecking')),
    identitiesOnly: one(m, 'identitiesonly') === 'yes',
    proxyJump: jump && jump !== 'none' ? jump : undefined,
    proxyCommand: proxy && proxy !== 'none' ? tokens(proxy, t, true) : undefined,
    connectTimeout: ct && ct !== 'none' ? Number(ct) : undefined,
    serverAliveInterval: Number(one(m, 'serveraliveinterval') ?? 0),
  };
}
