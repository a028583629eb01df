/**
 * group_vars/ and host_vars/ beside the playbook, as `ansible-inventory` reads them: from its --playbook-dir, else
 * Ansible's playbook_dir setting, else the directory it runs in. A repository's root holding group_vars/ with
 * `-i inventories/production/hosts` gives the hosts their variables; smdoctor must give the same.
 */
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { runCli } from '../../helpers/cli.ts';
import { ansibleEnv } from '../../helpers/inventory/ansible.ts';

const root = mkdtempSync(join(tmpdir(), 'smd-playbook-dir-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
const repo = join(root, 'repo');
const put = (path: string, text: string) => {
  mkdirSync(join(repo, path, '..'), { recursive: true });
  writeFileSync(join(repo, path), text);
};
put('inventories/production/hosts', '[search]\nnode1 ansible_host=10.0.0.1\nnode2 ansible_host=10.0.0.2\n');
put('inventories/production/group_vars/search.yml', 'api_port: 9201\nshared: from-inventory\n');
// the seven variables of the repository's root, beside its playbooks
put('group_vars/all/vars.yml', 'a: 1\nb: two\nc: [3]\nd: {e: 4}\nf: null\ng: true\nshared: from-root-all\n');
put('group_vars/search.yml', 'shared: from-root-group\n');
put('host_vars/node2.yml', 'api_port: 9300\n');
put('inventories/production/host_vars/node2.yml', 'api_port: 9250\n');
mkdirSync(join(repo, 'elsewhere'));
const env = { HOME: root };

const ansible = async (cwd: string, args: string[]) => {
  const r = await execa('ansible-inventory', ['-i', join(repo, 'inventories/production/hosts'), ...args], {
    cwd,
    env: { ...ansibleEnv, ...env },
    extendEnv: false,
    reject: false,
  });
  t.equal(r.exitCode, 0, r.stderr);
  return JSON.parse(r.stdout) as unknown;
};
const smdoctor = async (cwd: string, args: string[], e: NodeJS.ProcessEnv = env) => {
  const r = await runCli(['inventory', '-i', join(repo, 'inventories/production/hosts'), ...args], { cwd, env: e });
  t.equal(r.code, 0, r.err);
  return { vars: JSON.parse(r.out) as unknown, err: r.err };
};

t.test('each host: the variables ansible-inventory --host gives, wherever it runs', async (t) => {
  const runs: Array<[string, string, string[]]> = [
    ['from the repository root (the default: the working directory)', repo, []],
    ['from elsewhere: only the inventory folder', join(repo, 'elsewhere'), []],
    ['from elsewhere with --playbook-dir ..', join(repo, 'elsewhere'), ['--playbook-dir', '..']],
    ['from the root with --playbook-dir elsewhere', repo, ['--playbook-dir', 'elsewhere']],
  ];
  for (const [what, cwd, extra] of runs)
    for (const host of ['node1', 'node2']) {
      const want = await ansible(cwd, [...extra, '--host', host]);
      t.strictSame((await smdoctor(cwd, [...extra, '--host', host])).vars, want, `${what}: ${host}`);
    }
  const root1 = (await ansible(repo, ['--host', 'node1'])) as Record<string, unknown>;
  t.equal(root1.shared, 'from-root-group', 'Ansible: the playbook group_vars win over the inventory ones');
  t.equal(Object.keys(root1).length, 9, 'the seven of group_vars/all, api_port and ansible_host');
});

t.test('--list: the host variables of ansible-inventory --list', async (t) => {
  const list = (await ansible(repo, ['--list'])) as { _meta: { hostvars: Record<string, unknown> } };
  const ours = (await smdoctor(repo, ['--list'])).vars as { hosts: Record<string, { vars: unknown }> };
  for (const [h, vars] of Object.entries(list._meta.hostvars)) t.strictSame(ours.hosts[h]?.vars, vars, h);
});

t.test('ANSIBLE_PLAYBOOK_DIR is the default when no --playbook-dir is given, as for ansible-inventory', async (t) => {
  const cwd = join(repo, 'elsewhere');
  const e = { ...env, ANSIBLE_PLAYBOOK_DIR: repo };
  const r = await execa('ansible-inventory', ['-i', join(repo, 'inventories/production/hosts'), '--host', 'node1'], {
    cwd,
    env: { ...ansibleEnv, ...e },
    extendEnv: false,
  });
  t.strictSame((await smdoctor(cwd, ['--host', 'node1'], e)).vars, JSON.parse(r.stdout));
});

t.test('a playbook directory that is not one: ignored with a warning, as Ansible ignores it', async (t) => {
  const want = await ansible(repo, ['--playbook-dir', 'missing', '--host', 'node1']);
  const r = await smdoctor(repo, ['--playbook-dir', 'missing', '--host', 'node1']);
  t.strictSame(r.vars, want);
  t.match(r.err, /missing.*not a directory/);
});
