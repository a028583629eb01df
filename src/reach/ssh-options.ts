/** What smdoctor takes from one OpenSSH resolution (`ssh -G` or the subset parser): addresses, keys, host-key checks. */
import { userInfo } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { shellQuote } from './ssh-names.ts';
import type { SshOptionMap } from '../transport/ssh-config.ts';
import type { HostKeyPolicy } from '../model/index.ts';

export const one = (m: SshOptionMap, k: string): string | undefined => m.get(k)?.[0];

/** `~` is the home; a relative path is left to `base` (ssh opens it from its working directory), kept when none is known. */
export function expandPath(p: string, home: string, base: string | undefined): string {
  if (p === '~' || p.startsWith('~/')) return join(home, p.slice(1));
  return isAbsolute(p) || base === undefined ? p : resolve(base, p);
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

// every spelling OpenSSH's readconf accepts (case-insensitive) and `ssh -G` prints (true, false)
const POLICIES: Record<string, HostKeyPolicy> = {
  yes: 'strict',
  true: 'strict',
  ask: 'strict',
  no: 'off',
  false: 'off',
  off: 'off',
  'accept-new': 'accept-new',
};

/** StrictHostKeyChecking as smdoctor applies it: `ask` is strict, since nobody is asked. */
export function policyOf(v: string | undefined): HostKeyPolicy | undefined {
  return v === undefined ? undefined : POLICIES[v.toLowerCase()];
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
export function interpretSsh(m: SshOptionMap, o: { home: string; cwd: string | undefined; dest: string }): SshReading {
  const host = one(m, 'hostname') ?? o.dest;
  const port = Number(one(m, 'port') ?? 22);
  const user = one(m, 'user') ?? userInfo().username;
  const t = { host, port, user, dest: o.dest, home: o.home };
  const jump = one(m, 'proxyjump');
  const proxy = one(m, 'proxycommand');
  const ct = one(m, 'connecttimeout');
  return {
    host,
    port,
    user,
    identityFiles: (m.get('identityfile') ?? []).map((f) => expandPath(tokens(f, t), o.home, o.cwd)),
    // ssh -G prints every file on one line; the subset parser keeps one value per line of the config
    knownHostsFiles: (m.get('userknownhostsfile') ?? [])
      .flatMap((v) => v.split(/\s+/))
      .filter(Boolean)
      .map((f) => expandPath(tokens(f, t), o.home, o.cwd)),
    hostKeyChecking: policyOf(one(m, 'stricthostkeychecking')),
    identitiesOnly: one(m, 'identitiesonly') === 'yes',
    proxyJump: jump && jump !== 'none' ? jump : undefined,
    proxyCommand: proxy && proxy !== 'none' ? tokens(proxy, t, true) : undefined,
    connectTimeout: ct && ct !== 'none' ? Number(ct) : undefined,
    serverAliveInterval: Number(one(m, 'serveraliveinterval') ?? 0),
  };
}
