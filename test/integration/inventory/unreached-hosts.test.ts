/**
 * Hosts smdoctor never reaches (a winrm group whose user is a template it does not work out, a network_cli switch)
 * are listed as `ansible-inventory --list` lists them; only reaching such a host (audit of it) is refused.
 */
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { runCli } from '../../helpers/cli.ts';
import { ansibleEnv } from '../../helpers/inventory/ansible.ts';

const dir = mkdtempSync(join(tmpdir(), 'smd-unreached-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'group_vars'));
// the switch first: the cluster's default url would come from it
writeFileSync(
  join(dir, 'hosts'),
  '[switches]\nsw1 ansible_host=10.0.0.9\n[search]\nnode1 ansible_host=127.0.0.1\n[windows]\nwin1\n',
);
writeFileSync(
  join(dir, 'group_vars', 'windows.yml'),
  `ansible_connection: winrm\nansible_user: "{{ hostvars['localhost']['ansible_user'] }}"\n`,
);
writeFileSync(join(dir, 'group_vars', 'switches.yml'), 'ansible_connection: network_cli\nansible_network_os: ios\n');
const env = { HOME: dir };

const ansible = async (args: string[]) => {
  const r = await execa('ansible-inventory', ['-i', 'hosts', ...args], {
    cwd: dir,
    env: { ...ansibleEnv, ...env },
    extendEnv: false,
  });
  return JSON.parse(r.stdout) as Record<string, unknown>;
};

t.test('inventory --list and --host show them as ansible-inventory does', async (t) => {
  const list = (await ansible(['--list'])) as { _meta: { hostvars: Record<string, unknown> } };
  const r = await runCli(['inventory', '-i', 'hosts', '--list'], { cwd: dir, env });
  t.equal(r.code, 0, r.err);
  const ours = JSON.parse(r.out) as { hosts: Record<string, { vars: unknown }>; clusters: unknown[] };
  for (const [h, vars] of Object.entries(list._meta.hostvars)) t.strictSame(ours.hosts[h]?.vars, vars, h);
  t.strictSame(ours.clusters, [{ api_url: null, hosts: ['sw1', 'node1', 'win1'] }], 'the url is unknown, not made up');
  for (const h of ['win1', 'sw1']) {
    const one = await runCli(['inventory', '-i', 'hosts', '--host', h], { cwd: dir, env });
    t.equal(one.code, 0, one.err);
    t.strictSame(JSON.parse(one.out), await ansible(['--host', h]), `--host ${h}`);
  }
});

t.test('audit of such a host refuses, naming what it cannot use', async (t) => {
  const win = await runCli(['audit', '-i', 'hosts', '--limit', 'windows'], { cwd: dir, env });
  t.equal(win.code, 2, 'exit 2');
  t.match(win.err, /host 'win1': ansible_connection 'winrm' is not supported/);
  const sw = await runCli(['audit', '-i', 'hosts', '--limit', 'switches'], { cwd: dir, env });
  t.equal(sw.code, 2, 'exit 2');
  t.match(sw.err, /sw1.*network_cli.*not supported/);
});
