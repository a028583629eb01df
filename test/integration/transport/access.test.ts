/** Access paths against real sshd on loopback: Host aliases, ProxyJump chains, ProxyCommand, the jump pool. */
import t from 'tap';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { allocateLoopback } from '../../../lab/src/net.ts';
import { generateKey, startSshd, type SshdHandle } from '../../../lab/src/sshd.ts';
import { newRouteCache, reachHost } from '../../../src/reach/index.ts';
import { connectHost } from '../../../src/reach/deps.ts';
import type { Inventory, Vars } from '../../../src/inventory/types.ts';
import { mapLimitSettled } from '../../../src/transport/limit.ts';

// real handshakes through a bastion for ~40 connections: slow on a loaded machine, so more than the default file timeout
t.setTimeout(900_000);
const dir = await mkdtemp(join(tmpdir(), 'smdoctor-access-'));
const port = 2222;
const [bAddr, iAddr, t1Addr, t2Addr, deadAddr] = await allocateLoopback(5, [port]);
const key = await generateKey(join(dir, 'client_key'), 'access-test');
const servers: SshdHandle[] = [];
// each test is a run of its own: its ssh configuration read afresh, its jump connections its own
let routes = newRouteCache();
t.teardown(async () => {
  await routes.close();
  await Promise.all(servers.map((s) => s.stop()));
  await rm(dir, { recursive: true, force: true });
});
const start = async (name: string, address: string, logLevel: string) => {
  const s = await startSshd({
    dir: join(dir, name),
    address: address!,
    port,
    authorizedKeys: [key.publicKey],
    logLevel,
  });
  servers.push(s);
  return s;
};
const [bastion, inner, t1, t2] = await Promise.all([
  start('bastion', bAddr!, 'DEBUG2'),
  start('inner', iAddr!, 'DEBUG1'),
  start('t1', t1Addr!, 'VERBOSE'),
  start('t2', t2Addr!, 'VERBOSE'),
]);
const knownHosts = join(dir, 'known_hosts');
await writeFile(knownHosts, [bastion, inner, t1, t2].map((s) => `${s.knownHostsLine}\n`).join(''));
const home = join(dir, 'home');
await mkdir(join(home, '.ssh'), { recursive: true });
const sshConfig = join(home, '.ssh', 'config');
const user = userInfo().username;
await writeFile(
  sshConfig,
  [
    `Host bastion\n  HostName ${bAddr}\n  Port ${port}`,
    `Host inner\n  HostName ${iAddr}\n  Port ${port}\n  ProxyJump bastion`,
    `Host web\n  HostName ${t1Addr}\n  Port ${port}\n  User ${user}`,
    `Host web-bad\n  HostName ${t1Addr}\n  Port ${port}\n  User nosuchuser`,
    `Host t1 t1-*\n  HostName ${t1Addr}\n  Port ${port}\n  ProxyJump bastion`,
    `Host t2 t2-*\n  HostName ${t2Addr}\n  Port ${port}\n  ProxyJump bastion`,
    `Host closed\n  HostName ${t1Addr}\n  Port 2999\n  ProxyJump bastion`,
    `Host badjump\n  HostName ${deadAddr}\n  Port ${port}`,
    `Host behind-badjump\n  HostName ${t1Addr}\n  Port ${port}\n  ProxyJump badjump`,
    `Host *\n  IdentityFile ${key.privatePath}\n  UserKnownHostsFile ${knownHosts}\n  ConnectTimeout 90`,
    '',
  ].join('\n'),
);
const env: NodeJS.ProcessEnv = { HOME: home, PATH: process.env.PATH };

const inventory = (hosts: Record<string, Vars>): Inventory => ({
  file: join(dir, 'inventory.yml'),
  hosts: new Map(Object.entries(hosts).map(([name, vars]) => [name, { name, groups: [], vars }])),
  groups: new Map(),
});
// --jump-channels 5, as the command line gives it
const hostConfig = (inv: Inventory, name: string, e: NodeJS.ProcessEnv) =>
  reachHost(inv, name, e, { jumpChannels: 5, routes });
const warnings: string[] = [];
const connect = (inv: Inventory, name: string) =>
  connectHost(hostConfig(inv, name, env), { timeout: 120, env, warn: (m) => warnings.push(m), jumps: routes.jumps });
const log = (s: SshdHandle) =>
  readFile(join(dir, s === bastion ? 'bastion' : s === inner ? 'inner' : s === t1 ? 't1' : 't2', 'sshd.log'), 'utf8');
const count = (text: string, re: RegExp) => text.split('\n').filter((l) => re.test(l)).length;
/**
 * The most direct-tcpip channels open at once, from sshd's own DEBUG2 log: open from "new direct-tcpip" until
 * the client's close is received (sshd frees dead channels lazily, so "free" comes late).
 */
const peakFromLog = (text: string) => {
  const open = new Set<string>();
  let peak = 0;
  for (const line of text.split('\n')) {
    const m = /channel (\d+): (new direct-tcpip|rcvd close|free: direct-tcpip)/.exec(line);
    if (!m) continue;
    if (m[2] === 'new direct-tcpip') {
      open.add(m[1]!);
      peak = Math.max(peak, open.size);
    } else open.delete(m[1]!);
  }
  return peak;
};
const freshRun = async () => {
  await routes.close();
  routes = newRouteCache();
  for (const s of [bastion, inner]) await writeFile(join(dir, s === bastion ? 'bastion' : 'inner', 'sshd.log'), '');
};

t.test('a Host alias: its HostName, User and Port, from the default ~/.ssh/config', async (t) => {
  await freshRun();
  const inv = inventory({ web: {}, 'web-bad': {} });
  const cfg = hostConfig(inv, 'web', env);
  t.same([cfg.address, cfg.port, cfg.user], [t1Addr, port, user]);
  const tr = await connect(inv, 'web');
  t.teardown(() => tr.close());
  t.equal((await tr.exec('echo $SSH_CONNECTION')).stdout.split(' ')[2], t1Addr);
  t.equal((await tr.exec('id -un')).stdout.trim(), user);
  await t.rejects(
    connect(inv, 'web-bad'),
    { code: 'AUTH', message: /authentication as nosuchuser at/ },
    "the alias's User is used",
  );
});

t.test('through a bastion: one login per run, one direct-tcpip forward per target', async (t) => {
  await freshRun();
  const inv = inventory({ t1: {}, t2: {} });
  const results = await mapLimitSettled(['t1', 't2', 't1', 't2'], 4, async (h) => {
    const tr = await connect(inv, h);
    try {
      return (await tr.exec('echo $SSH_CONNECTION')).stdout.split(' ')[2];
    } finally {
      await tr.close();
    }
  });
  t.same(
    results.map((r) => (r.ok ? r.value : String(r.error))),
    [t1Addr, t2Addr, t1Addr, t2Addr],
  );
  await routes.close();
  const text = await log(bastion);
  t.equal(count(text, /Accepted publickey/), 1, 'one login on the bastion');
  t.equal(
    count(text, new RegExp(`server_request_direct_tcpip: .*target ${t1Addr!.replaceAll('.', '\\.')} port ${port}`)),
    2,
  );
  t.equal(
    count(text, new RegExp(`server_request_direct_tcpip: .*target ${t2Addr!.replaceAll('.', '\\.')} port ${port}`)),
    2,
  );
});

t.test('a two-hop chain from ansible_ssh_common_args: bastion, then inner, then the target', async (t) => {
  await freshRun();
  const inv = inventory({ t2: { ansible_ssh_common_args: '-J bastion,inner' } });
  const tr = await connect(inv, 't2');
  t.equal((await tr.exec('echo ok')).stdout, 'ok\n');
  await tr.close();
  await routes.close();
  const [b, i] = [await log(bastion), await log(inner)];
  t.match(
    b,
    new RegExp(`direct_tcpip: .*target ${iAddr!.replaceAll('.', '\\.')} port ${port}`),
    'the bastion forwards to inner',
  );
  t.notMatch(b, new RegExp(`direct_tcpip: .*target ${t2Addr!.replaceAll('.', '\\.')} `), 'but not to the target');
  t.match(
    i,
    new RegExp(`direct_tcpip: .*target ${t2Addr!.replaceAll('.', '\\.')} port ${port}`),
    'inner forwards to the target',
  );
  t.equal(count(i, /Accepted publickey/), 1);
  // inner's own ProxyJump (bastion) makes the same chain from the file alone
  await freshRun();
  const viaFile = hostConfig(
    inventory({ x: { ansible_host: t2Addr, ansible_port: port, ansible_ssh_common_args: '-J inner' } }),
    'x',
    env,
  );
  t.same(
    viaFile.ssh!.jumps.map((j) => j.name),
    ['bastion', 'inner'],
  );
});

t.test('ProxyCommand ssh -W %h:%p bastion', async (t) => {
  await freshRun();
  const inv = inventory({
    pc: {
      ansible_host: t1Addr,
      ansible_port: port,
      ansible_ssh_common_args: `-o ProxyCommand="ssh -F ${sshConfig} -o BatchMode=yes -W %h:%p bastion"`,
    },
  });
  const tr = await connect(inv, 'pc');
  t.equal((await tr.exec('echo $SSH_CONNECTION')).stdout.split(' ')[2], t1Addr);
  await tr.close();
  t.match(await log(bastion), new RegExp(`direct_tcpip: .*target ${t1Addr!.replaceAll('.', '\\.')} port ${port}`));
});

t.test('30 targets behind one bastion with --jump-channels 5: all succeed, at most 5 channels at once', async (t) => {
  await freshRun();
  const names = Array.from({ length: 30 }, (_, i) => `${i % 2 ? 't2' : 't1'}-${i}`);
  const inv = inventory(Object.fromEntries(names.map((n) => [n, {}])));
  const results = await mapLimitSettled(names, 30, async (h) => {
    const tr = await connect(inv, h);
    try {
      return (await tr.exec('echo done')).stdout;
    } finally {
      await tr.close();
    }
  });
  t.same(
    results.filter((r) => !r.ok || r.value !== 'done\n').map((r) => (r.ok ? r.value : String(r.error))),
    [],
    'every target answered',
  );
  const stats = await routes.jumps.stats();
  t.equal(stats.length, 1, 'one shared connection to the bastion');
  t.equal(stats[0]!.peakChannels, 5, 'the bound was reached and never passed');
  await routes.close();
  const text = await log(bastion);
  t.equal(count(text, /Accepted publickey/), 1);
  t.equal(count(text, /server_request_direct_tcpip/), 30);
  t.equal(peakFromLog(text), 5, 'sshd saw at most 5 forwards open at once');
});

t.test('unreachable: the jump host, or the target through it', async (t) => {
  await freshRun();
  const inv = inventory({ closed: {}, 'behind-badjump': {} });
  await t.rejects(connect(inv, 'closed'), {
    code: 'CONNECT',
    message: /target closed \(.*:2999\) unreachable through jump bastion/,
  });
  await t.rejects(connect(inv, 'behind-badjump'), {
    code: 'CONNECT',
    message: /behind-badjump: jump badjump unreachable/,
  });
});

t.test(
  'a changed host key on the jump host is refused, with both fingerprints, before any target is tried',
  async (t) => {
    await freshRun();
    const other = await generateKey(join(dir, 'other_host_key'), 'impostor');
    const badKnown = join(dir, 'known_hosts_bad');
    await writeFile(
      badKnown,
      `[${bAddr}]:${port} ${other.publicKey.split(' ').slice(0, 2).join(' ')}\n${t1.knownHostsLine}\n`,
    );
    const fp = async (pub: string) =>
      (await execa('ssh-keygen', ['-l', '-E', 'sha256', '-f', pub])).stdout.split(/\s+/)[1]!;
    // the connections t1 was offered, from its VERBOSE log: the sessions of the tests before may still be logging
    // their goodbyes on a busy machine, so the log as a whole can change without any new connection
    const offered = async () => count(await readFile(join(dir, 't1', 'sshd.log'), 'utf8'), /Connection from /);
    const before = await offered();
    const inv = inventory({ t1: { ssh_config_file: join(dir, 'bad_config') } });
    await writeFile(join(dir, 'bad_config'), (await readFile(sshConfig, 'utf8')).replaceAll(knownHosts, badKnown));
    const err = await connect(inv, 't1').catch((e: unknown) => e as Error);
    t.match(err, { code: 'HOST_KEY', message: /t1: jump bastion refused: .*CHANGED/ });
    t.match((err as Error).message, await fp(`${other.privatePath}.pub`), 'the known fingerprint');
    t.match((err as Error).message, await fp(`${bastion.hostKey.privatePath}.pub`), 'the presented fingerprint');
    t.equal(await offered(), before, 'the target saw no connection');
    t.notMatch(await log(bastion), /direct_tcpip/);
  },
);
