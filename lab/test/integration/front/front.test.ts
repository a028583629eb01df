import t from 'tap';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { labDown, labUp } from '../../../src/lifecycle.ts';
import { fleetScenario } from '../../../src/fleet.ts';
import { CHECK_IDS, loadInventory, runAudit, selectHosts } from 'smdoctor';
import { ssh } from '../../helpers/lab.ts';
import { pidAlive } from '../../../src/sshd.ts';
import { setFrontDown } from '../../../src/front/down.ts';
import { connect } from 'node:net';

// 4 clusters of 5 (20 hosts) in large-fleet mode, behind a 20 ms round trip
const dir = await mkdtemp(join(tmpdir(), 'smdoctor-front-'));
const up = await labUp({
  dir,
  scenario: fleetScenario(4, 5),
  env: { ...process.env, SMDOCTOR_LAB_FRONT: '1', SMDOCTOR_LAB_RTT_MS: '20' },
});
t.teardown(async () => {
  await labDown(dir);
  await rm(dir, { recursive: true, force: true });
});
const { layout } = up;
const target = (i: number) => ({
  keyFile: layout.sshKeyFile,
  knownHostsFile: layout.knownHostsFile,
  address: layout.hosts[i]!.ip,
  sshPort: layout.hosts[i]!.sshPort,
});

/** `read()` again until `done` holds of it or 30 s have passed; resolves the last read. */
async function until<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The live processes: pid, parent, command line (arguments joined by spaces). */
async function processes(): Promise<Array<{ pid: number; ppid: number; cmd: string }>> {
  const all: Array<{ pid: number; ppid: number; cmd: string }> = [];
  for (const p of await readdir('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    const cmd = await readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '');
    const stat = await readFile(`/proc/${p}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    all.push({ pid: Number(p), ppid, cmd: cmd.split('\0').join(' ').trim() });
  }
  return all;
}

/** Live pids whose command line holds `needle`. */
const pids = async (needle: string): Promise<number[]> =>
  (await processes()).filter((p) => p.cmd.includes(needle)).map((p) => p.pid);

/**
 * Waits until a session running `cmd` is up behind the front: a descendant of `frontPid` runs it (`cmd` itself, or the
 * login shell's `bash -c cmd`). Resolves the front's children then (the sshd it started, one per connection, the
 * session's among them).
 */
async function sessionUp(frontPid: number, cmd: string): Promise<number[]> {
  for (let i = 0; ; i++) {
    const all = await processes();
    const parent = new Map(all.map((p) => [p.pid, p.ppid]));
    const under = (p: number, depth = 0): boolean =>
      depth < 64 && parent.has(p) && (parent.get(p) === frontPid || under(parent.get(p)!, depth + 1));
    if (all.some((p) => p.cmd.endsWith(cmd) && under(p.pid)))
      return all.filter((p) => p.ppid === frontPid).map((p) => p.pid);
    if (i >= 600) throw new Error(`no session running ${cmd} behind the front ${frontPid} within 30 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

t.test('one front serves every host with its own host key, chosen by the address dialled', async (t) => {
  t.equal(layout.hosts.length, 20);
  t.ok(layout.front, 'the layout records the front');
  const known = (await readFile(layout.knownHostsFile, 'utf8')).trim().split('\n');
  t.equal(known.length, 20, 'one known_hosts line per host');
  const scanned: string[] = [];
  for (const i of [0, 13]) {
    const h = layout.hosts[i]!;
    const r = await execa('ssh-keyscan', ['-p', String(h.sshPort), '-t', 'ed25519', h.ip], { reject: false });
    const line = r.stdout.trim();
    t.ok(known.includes(line), `${h.name} at ${h.ip} offers the key known_hosts holds for it`);
    scanned.push(line.split(' ')[2]!);
    // its own config too: the session's environment names the host
    const env = await ssh(target(i), 'echo "$SMDOCTOR_LAB_NODE"');
    t.equal(env.exitCode, 0, env.stderr);
    t.equal(env.stdout.trim(), h.name, `${h.ip} is ${h.name}`);
  }
  t.not(scanned[0], scanned[1], 'two hosts, two host keys');
});

t.test('an audit of the large-fleet lab reaches every host and finds each cluster its own cause', async (t) => {
  const inventory = await loadInventory(up.inventoryPath);
  const report = await runAudit({ inventory, hosts: selectHosts(inventory), forks: 20, timeout: 60, env: process.env });
  t.equal(report.summary.hosts, 20);
  t.equal(report.summary.unreachable, 0, 'no unreachable host');
  const failed = Object.fromEntries(
    report.clusters.map((c) => [c.name, c.checks.filter((k) => k.status === 'fail').map((k) => k.id)]),
  );
  // fleet: cluster 1 healthy, cluster k breaks CHECK_IDS[k-2]
  t.same(failed, { c1: [], c2: [CHECK_IDS[0]], c3: [CHECK_IDS[1]], c4: [CHECK_IDS[2]] });
  // the front records a link once both its ends have closed: the audit's last closes may still be on their way
  const sshLinks = await until(
    async () =>
      (await readFile(join(dir, 'front', 'links.jsonl'), 'utf8'))
        .split('\n')
        .slice(0, -1) // whole lines only
        .map((l) => JSON.parse(l) as { kind: string; rtt: number })
        .filter((l) => l.kind === 'ssh'),
    (links) => links.length >= 20,
  );
  t.ok(sshLinks.length >= 20, 'every SSH connection went through the front');
  t.ok(
    sshLinks.every((l) => l.rtt === 20),
    'behind the 20 ms round trip',
  );
});

/** Whether a TCP connection to ip:port is accepted (false: refused). */
const accepts = (ip: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect({ host: ip, port }, () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

t.test('hosts taken down refuse connections and lose their sessions; brought back, they answer again', async (t) => {
  const [a, b, c] = [1, 2, 3].map((i) => layout.hosts[i]!);
  const session = ssh(target(2), 'sleep 30');
  // the session is up once its command runs behind the front
  const frontPid = Number((await readFile(layout.front!.pidFile, 'utf8')).trim());
  await sessionUp(frontPid, 'sleep 30');
  const t0 = Date.now();
  await setFrontDown(dir, [a!.name, b!.name]);
  t.notOk(await accepts(a!.ip, a!.sshPort), `${a!.name}'s SSH port refuses`);
  const engine = [a!, b!].find((h) => h.engineNode);
  t.ok(engine, 'one of them serves the API');
  t.notOk(await accepts(engine!.ip, 9200), `${engine!.name}'s API port refuses`);
  const cut = await session;
  t.not(cut.exitCode, 0, `the open session to ${b!.name} is cut`);
  t.ok(Date.now() - t0 < 20_000, 'at once, not when the command ends');
  t.equal((await ssh(target(3), 'echo up')).stdout.trim(), 'up', `${c!.name} stays up`);
  await setFrontDown(dir, []);
  for (const i of [1, 2]) {
    const r = await ssh(target(i), 'echo "$SMDOCTOR_LAB_NODE"');
    t.equal(r.stdout.trim(), layout.hosts[i]!.name, `${layout.hosts[i]!.name} answers again`);
  }
  t.ok(await accepts(engine!.ip, 9200), `${engine!.name}'s API port listens again`);
  // the front logs it just after writing what it applied, which is what setFrontDown waits for
  const log = await until(
    () => readFile(join(dir, 'front', 'front.log'), 'utf8'),
    (text) => text.includes('SIGHUP: 0 host(s) down'),
  );
  t.ok(log.includes('SIGHUP: 0 host(s) down'), 'the front logs it');
});

t.test('lab down ends the front and every sshd it started, even one in a session', async (t) => {
  const frontPid = Number((await readFile(layout.front!.pidFile, 'utf8')).trim());
  const session = ssh(target(1), 'sleep 30');
  // the session's sshd is up once its command runs: the lab's processes are then the front, the sshd it started
  // (its children) and the others lab up started (their command lines hold the lab's directory). The command itself
  // is the session's, not the lab's: like a real server's, it outlives a cut connection, and is not counted.
  const children = await sessionUp(frontPid, 'sleep 30');
  const before = [...new Set([...(await pids(dir)), ...children])];
  t.ok(before.includes(frontPid) && children.length >= 1, `front ${frontPid} and its sshd: ${before.join(' ')}`);
  const down = await labDown(dir);
  t.ok(down.stopped.includes('front'), 'lab down names the front');
  await session;
  const after = (await pids(dir)).filter((p) => p !== process.pid);
  t.same(after, [], 'no process of the lab left');
  // a zombie has exited all the same (where PID 1 does not reap orphans, it stays in the table)
  const alive = before.filter(pidAlive);
  t.same(alive, [], 'none of the processes seen before is alive');
});
