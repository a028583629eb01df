/**
 * serve (the built binary) against two real sshd: a host's route in its ssh_config changes while serve runs. Until a
 * SIGHUP the route serve read stays in use; after it, the edited file is read again and the host is reached the new
 * way (here through the other sshd as a ProxyJump), whatever SIGHUPs come meanwhile.
 */
import t from 'tap';
import { execa } from 'execa';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { userInfo } from 'node:os';
import { createServer, type Socket } from 'node:net';
import { startSshdFleet } from '../../helpers/sshd.ts';
import { parseMetrics } from '../../helpers/promtool.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dir = t.testdir();
const fleet = await startSshdFleet(t, 2);
const [target, jump] = fleet.servers as [(typeof fleet.servers)[0], (typeof fleet.servers)[0]];
const sshConfig = join(dir, 'ssh_config');
const common = [
  'Host *',
  `  User ${userInfo().username}`,
  `  IdentityFile ${fleet.clientKey.privatePath}`,
  `  UserKnownHostsFile ${fleet.knownHostsFile}`,
  '  StrictHostKeyChecking yes',
  '',
].join('\n');
const direct = `Host n1\n  HostName ${target.address}\n  Port ${target.port}\n${common}`;
const viaJump = `Host n1\n  HostName ${target.address}\n  Port ${target.port}\n  ProxyJump ${jump.address}:${jump.port}\n${common}`;
await writeFile(sshConfig, direct);
const home = join(dir, 'home');
await mkdir(home);
const inventory = join(dir, 'inventory.yml');
// the cluster's API accepts and drops at once (unreachable; the cycles still complete over SSH), or, while the test
// holds it, accepts and never answers, so that a cycle stays open exactly as long as the test needs
let holding: (() => void) | undefined;
const held: Socket[] = [];
const apiServer = createServer((s) => {
  s.on('error', () => undefined);
  if (!holding) return void s.destroy();
  held.push(s);
  holding();
});
await new Promise<void>((r) => apiServer.listen(0, '127.0.0.1', r));
t.teardown(() => void apiServer.close());
const apiPort = (apiServer.address() as { port: number }).port;
await writeFile(
  inventory,
  `all:\n  hosts:\n    n1:\n      ssh_config_file: ${sshConfig}\n      search_home: ${dir}/n1\n      web_home: ${dir}/n1-web\n      api_url: https://127.0.0.1:${apiPort}\n`,
);

const proc = execa(
  process.execPath,
  [join(root, 'bin/smdoctor.js'), 'serve', '-i', inventory, '--listen', '127.0.0.1:0', '--interval', '1'],
  { cwd: dir, reject: false, env: { NO_COLOR: '1', HOME: home } },
);
let log = '';
proc.stderr!.on('data', (d: Buffer) => (log += d.toString()));
t.teardown(() => void proc.kill('SIGKILL'));

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
  }
  throw new Error(`${what} did not happen: ${log.slice(-3000)}`);
}
const url = await until('serving', async () => /serving on (http:\/\/[^\s"]+)/.exec(log)?.[1]);
const metric = async (name: string) =>
  parseMetrics(await (await fetch(`${url}/metrics`)).text()).find((f) => f.name === name)?.metrics ?? [];
const cycles = async () => Number((await metric('smdoctor_cycles_total'))[0]?.value ?? 0);
const cyclesFrom = async (n: number) => until(`cycle ${n}`, async () => ((await cycles()) >= n ? true : undefined));

/** The sshd ports serve holds a TCP connection to. */
async function connectedTo(): Promise<string[]> {
  const out = (await execa('ss', ['-Htnp', 'state', 'established'])).stdout;
  const ours = new Set([target, jump].map((s) => `${s.address}:${s.port}`));
  return out
    .split('\n')
    .filter((l) => l.includes(`pid=${proc.pid},`))
    .map((l) => l.trim().split(/\s+/)[3]!)
    .filter((peer) => ours.has(peer))
    .sort();
}
const settlesOn = (want: string[]) =>
  until(`connections to ${want.join(' ')}`, async () =>
    JSON.stringify(await connectedTo()) === JSON.stringify(want) ? true : undefined,
  );

t.test('an edited ssh_config is used after SIGHUP, and not before', async (t) => {
  await cyclesFrom(1);
  await settlesOn([`${target.address}:${target.port}`]);
  t.pass('the host reached directly, as the file first said');

  await writeFile(sshConfig, viaJump);
  await cyclesFrom((await cycles()) + 2);
  t.same(await connectedTo(), [`${target.address}:${target.port}`], 'before the SIGHUP: the route serve read');

  // a storm of SIGHUPs while a cycle is under way (held open on the API): reloads never overlap a cycle, one follows it
  const reloadsSoFar = () => log.split('\n').filter((l) => l.includes('inventory reloaded')).length;
  t.equal(reloadsSoFar(), 0, 'no reload before any SIGHUP');
  await new Promise<void>((r) => (holding = r));
  for (let i = 0; i < 20; i++) {
    proc.kill('SIGHUP');
    await new Promise((r) => setTimeout(r, 25));
  }
  t.equal(reloadsSoFar(), 0, 'no reload while the cycle runs');
  holding = undefined;
  for (const s of held.splice(0)) s.destroy();
  await until('the reload', async () => (log.includes('inventory reloaded') ? true : undefined));
  await cyclesFrom((await cycles()) + 2);
  await settlesOn([`${jump.address}:${jump.port}`]);
  t.pass('after the SIGHUP: through the jump host only, the direct connection closed');
  const reachable = await metric('smdoctor_host_reachable');
  t.same(
    reachable.map((m) => m.value),
    ['1'],
    'the host is reached through its new route',
  );
  t.equal(reloadsSoFar(), 1, 'twenty SIGHUPs during a cycle make one reload after it');
  t.notMatch(log, /cycle failed|could not be reloaded/);

  proc.kill('SIGTERM');
  const end = await proc;
  t.equal(end.exitCode, 0, log);
  t.match(log, /stopped\n$/);
  t.same(await connectedTo(), [], 'nothing left open');
});
