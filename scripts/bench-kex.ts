/**
 * `npm run bench:kex`: the client CPU of connecting to 60 hosts and running one command on each, by
 * key exchange. Real sshd on loopback; CPU is this process's user+system time (process.cpuUsage), so a
 * loaded machine slows the wall clock but not the figure much. Ratios are to curve25519 in the same run.
 * Usage: tsx scripts/bench-kex.ts [--hosts 60] [--forks 20] [--runs 2] [--only before,after,ecdh,dh14]
 */
import { parseArgs } from 'node:util';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { allocateLoopback } from '../lab/src/net.ts';
import { generateKey, startSshd, type SshdHandle } from '../lab/src/sshd.ts';
import { KEX_PREFERENCE } from '../src/transport/ssh.ts';
import { connectTransport } from '../src/transport/connect.ts';
import { mapLimit } from '../src/transport/limit.ts';
import type { HostConfig } from '../src/inventory/types.ts';

const { values: a } = parseArgs({
  options: {
    hosts: { type: 'string', default: '60' },
    forks: { type: 'string', default: '20' },
    runs: { type: 'string', default: '2' },
    only: { type: 'string' },
  },
});
const hosts = Number(a.hosts);
const forks = Number(a.forks);
const runs = Number(a.runs);
const ALL: Record<string, [string, string[]]> = {
  // what 0.1 sent: no kex option, so ssh2's own default list (curve25519 first where Node supports it)
  before: ['before (ssh2 default)', []],
  after: ['after (curve25519-sha256 first)', [...KEX_PREFERENCE]],
  ecdh: ['ecdh-sha2-nistp256 only', ['ecdh-sha2-nistp256']],
  dh14: ['diffie-hellman-group14-sha256 only', ['diffie-hellman-group14-sha256']],
};
const chosen = (a.only ?? 'before,after,ecdh,dh14').split(',');
if (!chosen.includes('after')) chosen.push('after');
const VARIANTS: Record<string, string[]> = Object.fromEntries(
  chosen.map((k) => {
    const v = ALL[k];
    if (!v) throw new Error(`--only: unknown variant '${k}' (before, after, ecdh, dh14)`);
    return v;
  }),
);

const dir = await mkdtemp(join(tmpdir(), 'smdoctor-bench-kex-'));
const servers: SshdHandle[] = [];
try {
  const key = await generateKey(join(dir, 'client_key'));
  const addrs = await allocateLoopback(4, [2222]);
  for (const [i, address] of addrs.entries()) {
    servers.push(
      await startSshd({ dir: join(dir, `sshd-${i}`), address, port: 2222, authorizedKeys: [key.publicKey] }),
    );
  }
  const knownHostsFile = join(dir, 'known_hosts');
  await writeFile(knownHostsFile, servers.map((s) => `${s.knownHostsLine}\n`).join(''));
  const cfgs: HostConfig[] = Array.from({ length: hosts }, (_, i) => {
    const s = servers[i % servers.length]!;
    return {
      name: `h${i}`,
      connection: 'ssh',
      address: s.address,
      port: s.port,
      user: 'root',
      privateKeyFile: key.privatePath,
      become: false,
      knownHostsFile,
      hostKeyChecking: 'strict',
      engine: 'opensearch',
      searchHome: '/app/opensearch',
      webHome: '/app/opensearch-dashboards',
      engineUser: 'opensearch',
      restartCommand: 'true',
      apiUrl: `https://${s.address}:9200`,
      apiPasswordEnv: 'X',
      apiInsecure: false,
      inDashboardsGroup: false,
    };
  });
  const saved = [...KEX_PREFERENCE];
  const results: Record<string, number[]> = {};
  for (let r = 0; r < runs; r++) {
    for (const [name, kex] of Object.entries(VARIANTS)) {
      // the bench swaps the list in place: the transport reads it at each connect
      KEX_PREFERENCE.splice(0, KEX_PREFERENCE.length, ...((kex.length ? kex : saved) as typeof saved));
      if (!kex.length) (KEX_PREFERENCE as unknown as { length: number }).length = 0;
      const before = process.cpuUsage();
      await mapLimit(cfgs, forks, async (c) => {
        const t = await connectTransport(c, { timeout: 300, connectTimeout: 300 });
        try {
          await t.exec('true');
        } finally {
          await t.close();
        }
      });
      const used = process.cpuUsage(before);
      (results[name] ??= []).push((used.user + used.system) / 1000);
    }
  }
  KEX_PREFERENCE.splice(0, KEX_PREFERENCE.length, ...saved);
  const best = (xs: number[]) => Math.min(...xs);
  const floor = best(results['after (curve25519-sha256 first)']!);
  const rows = Object.entries(results).map(([name, xs]) => ({
    variant: name,
    cpu_ms: Math.round(best(xs)),
    per_host_ms: +(best(xs) / hosts).toFixed(1),
    ratio: +(best(xs) / floor).toFixed(2),
  }));
  process.stdout.write(`${JSON.stringify({ hosts, forks, runs, rows }, null, 2)}\n`);
} finally {
  await Promise.all(servers.map((s) => s.stop()));
  await rm(dir, { recursive: true, force: true });
}
