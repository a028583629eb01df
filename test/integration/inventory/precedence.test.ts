/** Ansible's VARIABLE_PRECEDENCE, hash_behaviour and precedence settings, checked against ansible-inventory. */
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { ansibleSettings } from '../../../src/inventory/ansiblecfg.ts';
import { loadInventory } from '../../../src/inventory/load.ts';
import { ansibleEnv } from '../../helpers/inventory/ansible.ts';
import { runCli } from '../../helpers/cli.ts';

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'smd-prec-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
  return root;
}

async function both(root: string, extraEnv: Record<string, string> = {}) {
  // run from an empty directory: ansible-inventory also reads group_vars/ beside the current directory
  const cwd = mkdtempSync(join(tmpdir(), 'smd-prec-cwd-'));
  t.teardown(() => rmSync(cwd, { recursive: true, force: true }));
  const r = await execa('ansible-inventory', ['-i', join(root, 'hosts'), '--list'], {
    cwd,
    env: { ...ansibleEnv, ...extraEnv },
  });
  const real = JSON.parse(r.stdout)._meta.hostvars as Record<string, Record<string, unknown>>;
  const env = { ...extraEnv, HOME: cwd };
  const inv = await loadInventory(join(root, 'hosts'), { env, settings: ansibleSettings(cwd, env) });
  return { real, mine: Object.fromEntries([...inv.hosts].map(([k, h]) => [k, { ...h.vars }])) };
}

const layered = {
  hosts:
    '[data]\nh1 ansible_port=2201\nh2\n[data:vars]\nansible_user=data-ops\nlevel=inv-data\n[all:vars]\nzone=inv-all\n' +
    '[dc:children]\ndata\n[dc:vars]\nrack=inv-dc\nconf={"a": 1, "b": {"x": 1}}\n',
  'group_vars/all.yml': 'ansible_user: ops\nzone: file-all\nconf: {b: {y: 2}, c: 3}\n',
  'group_vars/dc.yml': 'level: file-dc\n',
  'host_vars/h1.yml': 'ansible_port: 2202\n',
};

t.test('group_vars files, even all, beat group vars written in the inventory; host_vars beat host vars', async (t) => {
  const { real, mine } = await both(tree(layered));
  t.same(mine, real, 'same as ansible-inventory');
  t.equal(mine.h1.ansible_user, 'ops', 'group_vars/all.yml over [data:vars]');
  t.equal(mine.h2.level, 'file-dc', 'group_vars/dc.yml (the parent) over [data:vars] (the child)');
  t.equal(mine.h1.ansible_port, 2202, 'host_vars/h1.yml over the host line');
  t.same(mine.h1.conf, { b: { y: 2 }, c: 3 }, 'dictionaries replace by default');
});

t.test('ANSIBLE_HASH_BEHAVIOUR=merge merges dictionaries recursively', async (t) => {
  const { real, mine } = await both(tree(layered), { ANSIBLE_HASH_BEHAVIOUR: 'merge' });
  t.same(mine, real, 'same as ansible-inventory');
  t.same(mine.h1.conf, { a: 1, b: { x: 1, y: 2 }, c: 3 });
});

t.test('ANSIBLE_PRECEDENCE reorders the group sources', async (t) => {
  const order = 'all_plugins_inventory,groups_plugins_inventory,all_inventory,groups_inventory';
  const { real, mine } = await both(tree(layered), { ANSIBLE_PRECEDENCE: order });
  t.same(mine, real, 'same as ansible-inventory');
  t.equal(mine.h1.ansible_user, 'data-ops');
});

t.test('hash_behaviour from ansible.cfg, and a bad value is exit 2 naming the file', async (t) => {
  const root = tree({ ...layered, 'ansible.cfg': '[defaults]\nhash_behaviour = merge\n' });
  const ok = await runCli(['inventory', '--host', 'h1', '-i', join(root, 'hosts')], { cwd: root, env: { HOME: root } });
  t.equal(ok.code, 0, ok.err);
  t.same(JSON.parse(ok.out).conf, { a: 1, b: { x: 1, y: 2 }, c: 3 });
  writeFileSync(join(root, 'ansible.cfg'), '[defaults]\nhash_behaviour = deep\n');
  const bad = await runCli(['inventory', '--host', 'h1', '-i', join(root, 'hosts')], {
    cwd: root,
    env: { HOME: root },
  });
  t.equal(bad.code, 2);
  t.match(bad.err, /ansible\.cfg.*hash_behaviour must be replace or merge/);
});
