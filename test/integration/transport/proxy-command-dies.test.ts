/** A ProxyCommand that dies (bastion or target down): that host is unreachable, with the command's words; nothing crashes. */
import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { startLab } from '../../../lab/src/index.ts';
import type { Report } from '../../../src/model/index.ts';
import { runCli } from '../../helpers/cli.ts';
import { parseReport } from '../../helpers/schema.ts';
import { reachHost } from '../../../src/reach/index.ts';
import { connectHost } from '../../../src/reach/deps.ts';
import type { Inventory, Vars } from '../../../src/inventory/types.ts';
import { generateKey } from '../../../lab/src/sshd.ts';

const inventory = (dir: string, hosts: Record<string, Vars>): Inventory => ({
  file: join(dir, 'inventory.yml'),
  hosts: new Map(Object.entries(hosts).map(([name, vars]) => [name, { name, groups: [], vars }])),
  groups: new Map(),
});

// what `ssh -W %h:%p bastion` does when the bastion is down: a word on stderr, exit 255
const DEAD = `sh -c 'echo "ssh: connect to host bastion port 22: Connection refused" >&2; exit 255'`;
// a bastion that accepts, then drops the session during the handshake
const DROPS = `sh -c 'printf "SSH-2.0-OpenSSH_9.6\\r\\n"; sleep 0.2; exit 1'`;

for (const [name, command, why] of [
  [
    'the bastion is down',
    DEAD,
    /ProxyCommand .* exited \(255\): ssh: connect to host bastion port 22: Connection refused/,
  ],
  ['the session drops during the handshake', DROPS, /ProxyCommand .* exited \(1\)|closed|ended/],
] as const)
  t.test(`${name}: the connect fails with why, and no error escapes`, async (t) => {
    const dir = t.testdir({});
    const key = await generateKey(join(dir, 'key'), 'proxy-test');
    const escaped: unknown[] = [];
    const onUncaught = (e: unknown): void => void escaped.push(e);
    process.on('uncaughtException', onUncaught);
    t.teardown(() => void process.off('uncaughtException', onUncaught));
    const inv = inventory(dir, {
      pc: {
        ansible_host: '127.0.0.1',
        ansible_port: 2,
        ansible_ssh_common_args: `-o ProxyCommand="${command.replaceAll('"', '\\"')}"`,
        ansible_ssh_private_key_file: key.privatePath,
      },
    });
    const env = { HOME: dir, PATH: process.env.PATH };
    await t.rejects(connectHost(reachHost(inv, 'pc', env), { timeout: 10, env }), { message: why });
    // the stream's late errors (its destroy after the failed handshake) come on later ticks
    await new Promise((r) => setTimeout(r, 300));
    t.same(escaped.map(String), [], 'no uncaught error');
  });

t.test('audit and fix with one host behind a dead bastion: that host unreachable, the rest reported', async (t) => {
  const lab = await startLab({ scenario: 'healthy' });
  t.teardown(() => lab.stop());
  const inv = parse(await readFile(lab.inventoryPath, 'utf8'));
  const groups = inv.all.children as Record<string, { hosts?: Record<string, Record<string, unknown>> }>;
  const group = Object.values(groups).find((g) => g.hosts && Object.keys(g.hosts).length)!;
  const [first] = Object.values(group.hosts!);
  group.hosts!.ghost = {
    ...first,
    ansible_host: '127.0.0.1',
    ansible_ssh_common_args: `-o ProxyCommand="${DEAD.replaceAll('"', '\\"')}"`,
  };
  const file = join(lab.dir, 'inventory-ghost.yml');
  await writeFile(file, stringify(inv));
  for (const args of [['audit'], ['fix', '--yes', '--backup-dir', join(lab.dir, 'b')]]) {
    const r = await runCli([...args, '-i', file, '--format', 'json', '--timeout', '20'], { cwd: '/tmp' });
    const report = parseReport<Report>(r.out);
    t.equal(r.code, 3, `${args[0]}: incomplete, not a crash: ${r.err}`);
    const ghost = report.clusters.flatMap((c) => c.nodes).find((n) => n.host === 'ghost');
    t.match(ghost, { reachable: false }, `${args[0]}: ghost unreachable`);
    t.ok(
      report.clusters.flatMap((c) => c.nodes).some((n) => n.host !== 'ghost' && n.reachable),
      `${args[0]}: the other hosts were reached`,
    );
  }
});
