/** A ProxyCommand that dies (bastion or target down): that host is unreachable, with the command's words; nothing crashes. */
import t from 'tap';
import { join } from 'node:path';
import { connectHost, reachHost } from '../../src/reach/index.ts';
import type { Inventory, Vars } from '../../src/inventory/types.ts';
import { generateKey } from '../../src/lab/sshd.ts';

const inventory = (dir: string, hosts: Record<string, Vars>): Inventory => ({
  file: join(dir, 'inventory.yml'),
  hosts: new Map(Object.entries(hosts).map(([name, vars]) => [name, { name, groups: [], vars }])),
  groups: new Map(),
  access: {},
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
