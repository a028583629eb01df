import t from 'tap';
import { hostConfig, reachable } from '../../../src/inventory/hostconfig.ts';
import { parseInventory } from '../../../src/inventory/load.ts';
import { exitCodeFor, formatError } from '../../../src/base/errors.ts';

const env = { HOME: '/home/tester' };
const connectionOf = (value: string): string =>
  hostConfig(parseInventory(`[g]\nh ansible_connection=${value}\n`, '/i/inv.ini'), 'h', env).connection;

t.test('ansible_connection: the SSH plugins and local, in their short and fully-qualified names', async (t) => {
  for (const ssh of ['ssh', 'smart', 'paramiko', 'paramiko_ssh', 'ansible.builtin.ssh', 'ansible.builtin.paramiko_ssh'])
    t.equal(connectionOf(ssh), 'ssh', ssh);
  for (const local of ['local', 'ansible.builtin.local']) t.equal(connectionOf(local), 'local', local);
  t.equal(hostConfig(parseInventory('[g]\nh\n', '/i/inv.ini'), 'h', env).connection, 'ssh', 'unset is ssh');
});

t.test('an ansible_connection smdoctor cannot use is an input error naming the host and the value', async (t) => {
  let thrown: unknown;
  try {
    connectionOf('winrm');
  } catch (err) {
    thrown = err;
  }
  t.equal(exitCodeFor(thrown), 2);
  t.match(thrown, { code: 'INPUT', pos: { file: '/i/inv.ini' } });
  const text = formatError(thrown);
  t.match(text, /\/i\/inv\.ini/, 'positioned in the inventory');
  t.match(text, /host 'h'/);
  t.match(text, /ansible_connection 'winrm'/);
  t.match(text, /ssh\b.*local/, 'names what smdoctor supports');
});

t.test('reachable: the hosts that inventory --list shows as written are those reaching refuses', async (t) => {
  const vars = (v: unknown) => (v === undefined ? {} : { ansible_connection: v });
  for (const v of [undefined, null, '', 'ssh', 'paramiko', 'ansible.builtin.ssh', 'local', { a: 1 }, ['ssh']])
    t.ok(reachable(vars(v)), `${JSON.stringify(v)}: reached (refused where used, if at all)`);
  for (const v of [
    'winrm',
    'network_cli',
    'ansible.netcommon.httpapi',
    'netconf',
    'psrp',
    'docker',
    'SSH',
    ' ssh',
    1,
  ]) {
    t.notOk(reachable(vars(v)), `${JSON.stringify(v)}: never reached`);
    if (typeof v === 'string' && v.trim() === v)
      t.throws(() => connectionOf(v), { message: /is not supported/ }, `${v}: reaching refuses`);
  }
  // a templated connection is worked out; one that cannot be is refused, as reaching the host would be
  const lazy = Object.defineProperty({}, 'ansible_connection', {
    enumerable: true,
    get: () => {
      throw new Error('cannot work it out');
    },
  });
  t.throws(() => reachable(lazy), { message: /cannot work it out/ });
});
