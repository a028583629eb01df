/**
 * Hosts smdoctor never reaches (winrm, network_cli: an ansible_connection it does not use) are listed by
 * `inventory --list`/`--host` as `ansible-inventory` lists them, templates as written; hosts it audits keep their
 * refusals (a template it cannot work out in a value it uses, a vault value it cannot decrypt), as do vault files.
 */
import t from 'tap';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { runCli } from '../../helpers/cli.ts';
import { ansibleEnv } from '../../helpers/inventory/ansible.ts';

const root = mkdtempSync(join(tmpdir(), 'smd-unreached-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
function tree(files: Record<string, string>): string {
  const dir = join(root, `case-${n++}`);
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, p)), { recursive: true });
    writeFileSync(join(dir, p), text);
  }
  return dir;
}

type HostVars = Record<string, Record<string, unknown>>;
const run = (cmd: string, args: string[], cwd: string) =>
  execa(cmd, args, { cwd, env: { ...ansibleEnv, HOME: cwd }, extendEnv: false, reject: false });
const ansible = async (cwd: string, ...args: string[]) => {
  const r = await run('ansible-inventory', ['-i', 'hosts', ...args], cwd);
  return { code: r.exitCode, json: r.exitCode === 0 ? (JSON.parse(r.stdout) as Record<string, any>) : undefined };
};
const smd = (cwd: string, ...args: string[]) =>
  runCli(['inventory', '-i', 'hosts', ...args], { cwd, env: { HOME: cwd } });
// smdoctor never shows a secret-named variable's value
const SECRET = new Set(['ansible_password', 'ansible_become_password']);
const redacted = (vars: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, SECRET.has(k) ? '********' : v]));

// a repository with a network switch (first: the cluster's default url would come from it), the search nodes
// smdoctor audits, and a winrm group whose credentials come from a host the inventory does not have
const MIXED = {
  hosts:
    '[switches]\nsw1 ansible_host=10.0.0.9\n[search]\nnode1 ansible_host=127.0.0.1\nnode2 ansible_host=127.0.0.2\n' +
    '[windows]\nwin1\nwin2 ansible_host=10.0.0.20\n[search:vars]\nansible_user="{{ deploy_user }}"\ndeploy_user=ops\n',
  'group_vars/windows.yml':
    "ansible_connection: winrm\nansible_port: 5986\nansible_user: \"{{ hostvars['localhost']['ansible_user'] }}\"\n" +
    'ansible_password: "{{ hostvars[\'localhost\'][\'ansible_password\'] }}"\nansible_become_user: "{{ ansible_user }}"\n' +
    'search_home: "{% if x %}C:/app{% endif %}"\napi_url: "https://{{ nope }}:9200"\n',
  'group_vars/switches.yml':
    'ansible_connection: ansible.netcommon.network_cli\nansible_network_os: cisco.ios.ios\n' +
    'ansible_user: "{{ lookup(\'pipe\', \'touch MARK\') }}"\nansible_port: "{{ 22 + 1 }}"\n',
};

t.test('a mixed repository: --list and --host agree with ansible-inventory; the audited hosts resolve', async (t) => {
  const dir = tree(MIXED);
  const real = await ansible(dir, '--list');
  t.equal(real.code, 0, 'ansible-inventory lists it');
  const hostvars = real.json!._meta.hostvars as HostVars;
  const r = await smd(dir, '--list');
  t.equal(r.code, 0, r.err);
  const ours = JSON.parse(r.out) as { hosts: Record<string, { vars: unknown }>; clusters: unknown };
  t.strictSame(Object.keys(ours.hosts).sort(), Object.keys(hostvars).sort(), 'the same hosts');
  for (const h of ['sw1', 'win1', 'win2']) t.strictSame(ours.hosts[h]!.vars, redacted(hostvars[h]!), `${h} as written`);
  // the audited hosts' own settings as smdoctor uses them: ansible_user as ansible works it out
  const used = await run('ansible', ['search', '-i', 'hosts', '-o', '-m', 'debug', '-a', 'var=ansible_user'], dir);
  t.equal(used.exitCode, 0, used.stderr);
  for (const h of ['node1', 'node2']) {
    const user = new RegExp(`^${h} \\| SUCCESS => (.*)$`, 'm').exec(used.stdout)![1]!;
    t.strictSame(
      ours.hosts[h]!.vars,
      { ...hostvars[h], ansible_user: (JSON.parse(user) as { ansible_user: unknown }).ansible_user },
      `${h} as used`,
    );
  }
  t.strictSame(
    ours.clusters,
    [{ api_url: 'https://127.0.0.1:9200', hosts: ['node1', 'node2'] }],
    'the clusters are of the audited hosts: the switch first gives no url, winrm hosts belong to none',
  );
  for (const h of ['sw1', 'win1']) {
    const one = await smd(dir, '--host', h);
    t.equal(one.code, 0, one.err);
    t.strictSame(JSON.parse(one.out), redacted((await ansible(dir, '--host', h)).json!), `--host ${h}`);
  }
  t.notOk(existsSync(join(dir, 'MARK')), 'a lookup in an unreached host is text, never run (by either tool)');
});

t.test('a value shown as written is never used: reaching its host is refused', async (t) => {
  const dir = tree(MIXED);
  const win = await runCli(['audit', '-i', 'hosts', '--limit', 'win1'], { cwd: dir, env: { HOME: dir } });
  t.equal(win.code, 2, 'audit win1: exit 2');
  t.match(win.err, /host 'win1': ansible_connection 'winrm' is not supported/);
  // the switch's port is read first: its template is refused before its connection
  const sw = await runCli(['audit', '-i', 'hosts', '--limit', 'sw1'], { cwd: dir, env: { HOME: dir } });
  t.equal(sw.code, 2, 'audit sw1: exit 2');
  t.match(sw.err, /host 'sw1': variable 'ansible_port' .*unsupported template/);
  t.notOk(existsSync(join(dir, 'MARK')), 'nothing run');
});

t.test('a hostile inventory cannot dodge a refusal by calling hosts winrm', async (t) => {
  const bad = "ansible_user: \"{{ hostvars['x']['y'] }}\"\n";
  // winrm for every host, but the search node's own host_vars say ssh: it is audited, its ansible_user refused
  const group = tree({
    hosts: '[search]\nnode1 ansible_host=127.0.0.1\n[windows]\nwin1\n',
    'group_vars/all.yml': `ansible_connection: winrm\n${bad}`,
    'host_vars/node1.yml': 'ansible_connection: ssh\n',
  });
  const r1 = await smd(group, '--list');
  t.equal(r1.code, 2, 'exit 2');
  t.match(r1.err, /host 'node1': variable 'ansible_user' \(set in .*group_vars\/all\.yml\): unsupported template/);
  t.match(r1.err, /group_vars\/all\.yml/, 'positioned in the file');
  // a templated connection is worked out first: ssh when host_vars give it, winrm by default otherwise
  const templated = tree({
    hosts: '[search]\nnode1 ansible_host=127.0.0.1\nnode2 ansible_host=127.0.0.2\n',
    'group_vars/search.yml': `ansible_connection: "{{ conn | default('winrm') }}"\n${bad}`,
    'host_vars/node1.yml': 'conn: ssh\n',
  });
  const r2 = await smd(templated, '--list', '--limit', 'node1');
  t.equal(r2.code, 2, 'node1 resolves to ssh: refused');
  t.match(r2.err, /host 'node1': variable 'ansible_user'/);
  const r3 = await smd(templated, '--list', '--limit', 'node2');
  t.equal(r3.code, 0, r3.err);
  t.equal(JSON.parse(r3.out).hosts.node2.vars.ansible_user, "{{ hostvars['x']['y'] }}", 'node2 is winrm: as written');
  // a connection smdoctor cannot work out might be ssh: refused, as reaching the host would be
  const unknown = tree({
    hosts: '[search]\nnode1 ansible_host=127.0.0.1\n',
    'host_vars/node1.yml': `ansible_connection: "{{ hostvars['win1']['ansible_connection'] }}"\n${bad}`,
  });
  const r4 = await smd(unknown, '--list');
  t.equal(r4.code, 2);
  t.match(r4.err, /host 'node1': variable 'ansible_connection' \(set in .*host_vars\/node1\.yml\): unsupported/);
});

t.test('vault: a file is decrypted whatever its hosts; a value only where it is used', async (t) => {
  const dir = tree({ ...MIXED, pass: 'right-pass\n', wrong: 'wrong-pass\n' });
  const enc = await run('ansible-vault', ['encrypt', '--vault-password-file', 'pass', 'group_vars/windows.yml'], dir);
  t.equal(enc.exitCode, 0, enc.stderr);
  for (const [args, why] of [
    [[], /group_vars\/windows\.yml:1: .*no vault password was given/],
    [['--vault-password-file', 'wrong'], /group_vars\/windows\.yml:1: cannot decrypt/],
  ] as const) {
    t.not(
      (await ansible(dir, '--list', ...args)).code,
      0,
      `ansible-inventory refuses ${args.join(' ') || 'no password'}`,
    );
    const r = await smd(dir, '--list', ...args);
    t.equal(r.code, 2, `smdoctor refuses too: ${args.join(' ') || 'no password'}`);
    t.match(r.err, why);
  }
  const ok = await smd(dir, '--list', '--vault-password-file', 'pass');
  t.equal(ok.code, 0, ok.err);
  const real = (await ansible(dir, '--list', '--vault-password-file', 'pass')).json!._meta.hostvars as HostVars;
  t.strictSame(Object.keys(JSON.parse(ok.out).hosts.win1.vars), Object.keys(real.win1!), 'decrypted and listed');
  // an inline vault value in a winrm host's ansible_user is never decrypted: ansible-inventory shows it encrypted
  const user = await run('ansible-vault', ['encrypt_string', '--vault-password-file', 'pass', 'x', '--name', 'u'], dir);
  const vaulted = user.stdout.replace(/^u:/, 'ansible_user:').replace(/^/gm, '      ');
  const host = (h: string, line: string) => `all:\n  hosts:\n    ${h}:\n      ${line}\n${vaulted}\n`;
  const v = tree({ hosts: host('win1', 'ansible_connection: winrm') });
  const a = await ansible(v, '--list', '--vault-password-file', join(dir, 'wrong'));
  t.equal(a.code, 0, 'ansible-inventory lists it with a wrong password');
  t.ok(a.json!._meta.hostvars.win1.ansible_user.__ansible_vault, 'encrypted, as written');
  const s = await smd(v, '--list', '--vault-password-file', join(dir, 'wrong'));
  t.equal(s.code, 0, s.err);
  t.equal(JSON.parse(s.out).hosts.win1.vars.ansible_user, '********', 'shown as a secret, not decrypted');
  // the same value on a host smdoctor audits is used: a wrong password is exit 2
  writeFileSync(join(v, 'hosts'), host('node1', 'ansible_host: 127.0.0.1'));
  const audited = await smd(v, '--list', '--vault-password-file', join(dir, 'wrong'));
  t.equal(audited.code, 2, 'an audited host refuses');
  t.match(audited.err, /host 'node1': variable 'ansible_user': .*cannot decrypt/);
});
