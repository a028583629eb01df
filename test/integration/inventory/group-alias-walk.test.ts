/** The YAML inventory's group walk follows aliased children itself: it counts them, so a 2 KB alias bomb is exit 2. */
import t from 'tap';
import { join } from 'node:path';
import { loadInventory } from '../../../src/inventory/load.ts';
import type { Inventory } from '../../../src/inventory/types.ts';
import { runCli } from '../../helpers/cli.ts';
import { ansibleView } from '../../helpers/inventory/ansible.ts';

// each level's children alias the level below twice: 2^40 group visits from 41 lines
const levels = (n: number): string =>
  ['l0: &l0 {hosts: {h1: {ansible_host: 127.0.0.1}}}']
    .concat(
      Array.from({ length: n }, (_, i) => `l${i + 1}: &l${i + 1} {children: {a${i + 1}: *l${i}, b${i + 1}: *l${i}}}`),
    )
    .join('\n');

t.test('children aliasing the level below twice: exit 2 naming the file, at once', async (t) => {
  const dir = t.testdir({ 'inv.yml': `${levels(40)}\n` });
  t.ok(Buffer.byteLength(levels(40)) < 2600, 'a small file');
  // the work done, as CPU time: on a loaded machine the wall clock also counts the turns other processes got
  const started = process.cpuUsage();
  const r = await runCli(['inventory', '--list', '-i', join(dir, 'inv.yml')]);
  const used = process.cpuUsage(started);
  t.equal(r.code, 2, r.err.slice(0, 300));
  t.match(r.err, join(dir, 'inv.yml'));
  t.match(r.err, /aliases expand past 10,000/);
  t.notMatch(r.err, /internal error/);
  t.ok((used.user + used.system) / 1000 < 10_000, 'refused in seconds, not minutes');
});

const view = (inv: Inventory) =>
  Object.fromEntries([...inv.hosts].map(([k, h]) => [k, { groups: h.groups, vars: h.vars }]));

// aliases a real inventory uses: a shared children block, a shallow doubling, a group redefined after its alias
const NORMAL: Array<{ what: string; yaml: string }> = [
  { what: 'a few levels of doubling', yaml: `${levels(5)}\n` },
  {
    what: 'one children block shared by two parents',
    yaml:
      'dc1:\n  children: &racks\n    rack1: {hosts: {h1: {ansible_host: 127.0.0.1}}, vars: {r: 1}}\n    rack2: {hosts: {h2: {ansible_host: 127.0.0.2}}}\n' +
      'dc2:\n  children: *racks\n  vars: {dc: 2}\n',
  },
  {
    what: 'a group defined through an alias, then again with other vars',
    yaml:
      'base: &base {hosts: {h1: {ansible_host: 127.0.0.1}}, vars: {x: alias}}\n' +
      'top:\n  children:\n    copy: *base\n    base: {vars: {x: later}}\n    again: *base\n',
  },
];

for (const c of NORMAL)
  t.test(`same as ansible-inventory: ${c.what}`, async (t) => {
    const dir = t.testdir({ 'inv.yml': c.yaml });
    const mine = await loadInventory(join(dir, 'inv.yml'));
    t.strictSame(view(mine), (await ansibleView(join(dir, 'inv.yml'))).hosts);
  });
