import t from 'tap';
import { join } from 'node:path';
import { parseInventory } from '../../../src/inventory/load.ts';
import { selectHosts } from '../../../src/inventory/select.ts';
import { expandRange, MAX_HOSTS } from '../../../src/inventory/ranges.ts';
import { runCli } from '../../helpers/cli.ts';

t.test('the host cap is 100,000, as the README says', async (t) => {
  t.equal(MAX_HOSTS, 100_000);
});

t.test('m[1:999999] is refused with exit 2, naming the pattern and file:line', async (t) => {
  const dir = t.testdir({ 'inv.yml': 'all:\n  children:\n    big:\n      hosts:\n        m[1:999999]:\n' });
  const r = await runCli(['inventory', '--list', '-i', join(dir, 'inv.yml')]);
  t.equal(r.code, 2);
  t.match(
    r.err,
    /inv\.yml:5(:\d+)?: host pattern 'm\[1:999999\]': expands to 999,999 hosts, more than the limit of 100,000/,
  );
});

t.test('a[0:9999]b[0:9999] (100 million names) is refused before any name is built', async (t) => {
  const before = process.memoryUsage().rss;
  t.throws(
    () => parseInventory('[g]\na[0:9999]b[0:9999]\n', 'inv.ini'),
    /a\[0:9999\]b\[0:9999\].*expands to 100,000,000 hosts/,
  );
  // not a timing: a few MB at most, where building the names takes GBs
  t.ok(process.memoryUsage().rss - before < 200 * 2 ** 20, 'memory did not grow by hundreds of MB');
});

t.test('patterns that together pass the cap are refused at the one that crosses it', async (t) => {
  const ini = '[a]\nx[1:60000]\n[b]\ny[1:60000]\n';
  t.throws(() => parseInventory(ini, 'inv.ini'), {
    message: /'y\[1:60000\]' takes the inventory past 100,000 hosts/,
    pos: { line: 4 },
  });
  // the same 60,000 hosts in two groups are 60,000 hosts
  const twice = parseInventory('[a]\nx[1:60000]\n[b]\nx[1:60000]\n', 'inv.ini');
  t.equal(twice.hosts.size, 60_000);
});

t.test('80,000 hosts load, in order, and --limit works on them', async (t) => {
  const yaml =
    'all:\n  children:\n    web:\n      hosts:\n        w[00001:80000].example:\n    odd:\n      hosts:\n        w[00001:80000:2].example:\n';
  const inv = parseInventory(yaml, 'inv.yml');
  t.equal(inv.hosts.size, 80_000);
  t.equal(inv.groups.get('web')!.hosts.length, 80_000);
  t.equal(inv.groups.get('web')!.hosts[79_999], 'w80000.example');
  t.equal(selectHosts(inv, 'web:&odd').length, 40_000);
  t.equal(selectHosts(inv, 'web:!odd')[0], 'w00002.example');
});

t.test('ranges expand as Ansible orders them: the first range outermost', async (t) => {
  t.strictSame(expandRange('r[1:2]x[a:c]'), ['r1xa', 'r1xb', 'r1xc', 'r2xa', 'r2xb', 'r2xc']);
  t.strictSame(expandRange('n[3:1]'), [], 'an empty numeric range has no hosts');
  t.strictSame(expandRange('n[08:10]'), ['n08', 'n09', 'n10']);
});
