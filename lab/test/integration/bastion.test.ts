/**
 * lab up --bastion for real: network namespaces, a jump host's sshd in the dmz, the nodes' sshds and the API
 * in the fleet. One bastion lab for the file (and one direct lab to compare reports with), both stopped at teardown.
 */
import t from 'tap';
import { connect } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { parse } from 'yaml';
import { runCli } from '../../../test/helpers/cli.ts';
import { startLab, type Lab } from '../../src/index.ts';
import { readLayout, type LabLayout } from '../../src/layout.ts';
import { readNet, netnsPids, type LabNet } from '../../src/netns.ts';
import { pidAlive } from '../../src/sshd.ts';
import type { Report } from '../../../src/model/index.ts';

// a rolling fix through a jump host on a busy 2-core machine can outlast the default 300 s per file
t.setTimeout(900_000);
// not t.testdir(): tap removes that at the end of the file, before the teardown below could read it to bring the lab
// down, so a run that ended early (a failure, a --grep) left the namespaces and their processes behind
const dir = await mkdtemp(join(tmpdir(), 'smdoctor-bastion-'));
let direct: Lab;
let layout: LabLayout;
let net: LabNet;
const inventory = join(dir, 'inventory.yml');

t.before(async () => {
  const [up, d] = await Promise.all([
    runCli(['lab', 'up', '--bastion', '--dir', dir, '--scenario', 'broken']),
    startLab({ scenario: 'broken' }),
  ]);
  direct = d;
  if (up.code !== 0) throw new Error(`lab up --bastion exited ${up.code}: ${up.err}`);
  layout = await readLayout(dir);
  net = (await readNet(dir))!;
});
t.teardown(async () => {
  await runCli(['lab', 'down', '--dir', dir]);
  await direct?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Resolves to the error code of a TCP connection from this (the host's) namespace, or 'connected'. */
const tcpFromHost = (host: string, port: number) =>
  new Promise<string>((resolve) => {
    const s = connect({ host, port });
    s.setTimeout(5000, () => {
      s.destroy();
      resolve('timeout');
    });
    s.once('connect', () => {
      s.destroy();
      resolve('connected');
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });
/** The first 4 bytes a TCP connection from inside `ns` receives, within `seconds` (a banner can be slow to come on a
 * busy machine: sshd forks for each connection). */
const tcpFromNs = (ns: string, host: string, port: number, seconds = 30) =>
  execa(
    'ip',
    [
      'netns',
      'exec',
      ns,
      'timeout',
      String(seconds),
      'bash',
      '-c',
      `exec 3<>/dev/tcp/${host}/${port} && head -c 4 <&3`,
    ],
    { reject: false },
  );

/** One run of the CLI in this process (its jump connections end with it). */
const run = (args: string[]) => runCli(args, { cwd: '/tmp' });

async function audit(inv: string, ...extra: string[]) {
  const r = await run(['audit', '-i', inv, '--format', 'json', '--timeout', '180', ...extra]);
  return { code: r.code, report: JSON.parse(r.out) as Report, err: r.err };
}

/** What a report says, with each host's address and the lab dir written as names: the two labs differ only there. */
function essence(r: Report, hosts: Array<{ name: string; ip: string }>, labDir: string): unknown {
  let text = JSON.stringify(
    r.clusters.map((c) =>
      c.checks.map((k) => ({ id: k.id, status: k.status, findings: k.findings, actions: k.actions })),
    ),
  );
  text = text.split(labDir).join('<lab>');
  // longest first, so 10.1.2.1 does not eat the start of 10.1.2.10
  for (const h of [...hosts].sort((a, b) => b.ip.length - a.ip.length)) text = text.split(h.ip).join(`<${h.name}>`);
  // file hashes cover file contents, which hold the addresses
  return JSON.parse(text.replace(/"(\w*sha256)":"[0-9a-f]{64}"/g, '"$1":"-"'));
}

const bastionLog = () => readFile(join(layout.bastion!.dir, 'sshd.log'), 'utf8');
const logins = async () => (await bastionLog()).match(/Accepted publickey for /g)?.length ?? 0;

t.test('the fleet is isolated: the host reaches only the bastion, the dmz reaches the fleet', async (t) => {
  const node = layout.hosts[0]!;
  t.not(
    await tcpFromHost(node.ip, node.sshPort),
    'connected',
    `a direct connection from the host to ${node.name} fails`,
  );
  t.not(await tcpFromHost(node.ip, 9200), 'connected', 'and to its API');
  t.equal(
    await tcpFromHost(layout.bastion!.ip, layout.bastion!.sshPort),
    'connected',
    'the bastion answers from the host',
  );
  t.equal((await tcpFromNs(net.dmz, node.ip, node.sshPort)).stdout, 'SSH-', 'the dmz reaches the node');
  t.not(
    // refused or dropped: a short wait cannot turn into a banner
    (await tcpFromNs(net.fleet, layout.bastion!.ip, layout.bastion!.sshPort, 3)).stdout,
    'SSH-',
    'the fleet does not reach the host side of the dmz',
  );

  const inv = parse(await readFile(inventory, 'utf8'));
  t.match(inv.all.vars, { api_via_ssh: true, ssh_config_file: join(dir, 'ssh', 'config') });
  t.match(
    await readFile(join(dir, 'ssh', 'config'), 'utf8'),
    new RegExp(`Host bastion\\n\\s+HostName ${layout.bastion!.ip.replace(/\./g, '\\.')}[^]*ProxyJump bastion`),
  );
  t.ok(
    layout.hosts.every((h) => h.ip.startsWith(net.fleetSubnet.replace(/0\/24$/, ''))),
    "node addresses are the fleet namespace's",
  );
});

t.test("audit through the bastion: the direct lab's report, one bastion login, a forward to each node", async (t) => {
  const before = await logins();
  // one after the other: the machine may be busy, and the bastion's log must hold only this run
  const viaJump = await audit(inventory);
  const straight = await audit(direct.inventoryPath);
  t.equal(viaJump.code, 1, viaJump.err);
  t.equal(straight.code, 1, straight.err);
  t.match(viaJump.report.summary, { hosts: 7, unreachable: 0, checks_failed: 5 });
  t.same(
    essence(
      viaJump.report,
      layout.hosts.map((h) => ({ name: h.name, ip: h.ip })),
      dir,
    ),
    essence(
      straight.report,
      direct.nodes.map((n) => ({ name: n.name, ip: n.address })),
      direct.dir,
    ),
    'same statuses, findings and actions, modulo addresses',
  );
  t.equal(await logins(), before + 1, 'one login on the bastion for the whole run');
  const log = await bastionLog();
  for (const h of layout.hosts)
    t.match(
      log,
      new RegExp(`direct_tcpip: .*target ${h.ip.replace(/\./g, '\\.')} port ${h.sshPort}`),
      `a forward to ${h.name}`,
    );
});

t.test('fix through the bastion completes; the re-audit passes', async (t) => {
  const before = await logins();
  const fix = await run([
    'fix',
    '-i',
    inventory,
    '--yes',
    '--format',
    'json',
    '--timeout',
    '180',
    '--backup-dir',
    join(dir, 'backups'),
  ]);
  t.equal(fix.code, 0, fix.err);
  t.equal(await logins(), before + 1, 'fix logs in to the bastion once');
  const again = await audit(inventory);
  t.equal(again.code, 0, again.err);
  t.equal(await logins(), before + 2, 'and so does the re-audit');
});

t.test('lab down after a crash leaves no namespace, veth, route or process; twice is fine', async (t) => {
  const pids = [...(await netnsPids(net.fleet)), ...(await netnsPids(net.dmz))];
  t.ok(pids.length >= layout.hosts.length + 2, 'sshds and the daemon run in the namespaces');
  process.kill(Number((await readFile(join(dir, 'run', 'daemon.pid'), 'utf8')).trim()), 'SIGKILL');
  // a lost pid file too: the namespace still finds that sshd
  await rm(join(dir, 'nodes', layout.hosts[0]!.name, 'sshd', 'sshd.pid'));
  const down = await runCli(['lab', 'down', '--dir', dir]);
  t.equal(down.code, 0, down.err);
  t.match(down.out, /network namespaces removed/);
  t.same(pids.filter(pidAlive), [], 'no process left');
  const netns = (await execa('ip', ['netns', 'list'])).stdout;
  t.notOk(netns.includes(net.dmz) || netns.includes(net.fleet), 'no namespace left');
  const links = (await execa('ip', ['-o', 'link'])).stdout;
  t.notOk(
    [net.hostVeth, net.dmzOuterVeth, net.dmzInnerVeth, net.fleetVeth].some((v) => links.includes(v)),
    'no veth left',
  );
  t.notOk((await execa('ip', ['route'])).stdout.includes(net.fleetSubnet), 'no route left');
  const again = await runCli(['lab', 'down', '--dir', dir]);
  t.equal(again.code, 0);
  t.match(again.out, /not up/);
});
