/** A realistic Ansible repository: directory source, group_vars/host_vars (files and directories), vault, templates, a script. */
import t from 'tap';
import { join } from 'node:path';
import { execa } from 'execa';
import { loadInventory } from '../../../src/inventory/load.ts';
import { vaultSecrets } from '../../../src/inventory/vaultpass.ts';
import { ansibleEnv } from '../../helpers/inventory/ansible.ts';

const repo = join(import.meta.dirname, '..', '..', 'fixtures', 'ansible-repo');
const sources = [join(repo, 'inventories', 'prod'), join(repo, 'scripts', 'extra.py')];
const vaultArgs = ['--vault-id', 'prod@prod-pass.txt', '--vault-password-file', 'vault-pass.txt'];
const env = { ...ansibleEnv, ANSIBLE_INVENTORY_ENABLED: 'script,yaml,ini', SMDOCTOR_FIXTURE_HOME: '/home/fixture' };
const iArgs = sources.flatMap((s) => ['-i', s]);

async function ours() {
  const secrets = await vaultSecrets(
    { vaultId: ['prod@prod-pass.txt'], vaultPasswordFile: ['vault-pass.txt'] },
    { cwd: repo, env: {} },
  );
  return loadInventory(sources, { secrets, env });
}

/** Every host's variables as Ansible resolves them: names from ansible-inventory, values templated by `ansible -m debug`. */
async function theirs(): Promise<Record<string, Record<string, unknown>>> {
  const inv = await execa('ansible-inventory', [...iArgs, ...vaultArgs, '--list'], { cwd: repo, env, reject: false });
  if (inv.exitCode !== 0) throw new Error(inv.stderr);
  const hostvars = JSON.parse(inv.stdout)._meta.hostvars as Record<string, Record<string, unknown>>;
  const names = [...new Set(Object.values(hostvars).flatMap((v) => Object.keys(v)))];
  const expr = `{{ { ${names.map((n) => `'${n}': (${n} | default('__undefined__'))`).join(', ')} } }}`;
  const r = await execa('ansible', ['all', ...iArgs, ...vaultArgs, '-o', '-m', 'debug', '-a', `msg="${expr}"`], {
    cwd: repo,
    env,
    reject: false,
  });
  if (r.exitCode !== 0) throw new Error(r.stdout + r.stderr);
  const out: Record<string, Record<string, unknown>> = {};
  // one line per host: `NAME | SUCCESS => {"changed": false, "msg": {...}}`
  for (const m of r.stdout.matchAll(/^(\S+) \| SUCCESS => (.*)$/gm)) {
    const msg = (JSON.parse(m[2]) as { msg: Record<string, unknown> }).msg;
    // a connection variable such as ansible_host exists in a task's context even when the inventory has none
    out[m[1]] = Object.fromEntries(
      Object.entries(msg).filter(([k, v]) => v !== '__undefined__' && k in hostvars[m[1]]),
    );
  }
  return out;
}

t.test('every host resolves to what ansible resolves', async (t) => {
  const [mine, real] = await Promise.all([ours(), theirs()]);
  t.same(
    [...mine.hosts.keys()].sort(),
    Object.keys(real).sort(),
    'same hosts (old.ini, README.md and backups skipped)',
  );
  for (const [name, vars] of Object.entries(real)) t.same(mine.hosts.get(name)!.vars, vars, name);
  t.equal(mine.hosts.get('m1.example.com')!.vars.api_password, 'S3cret-master-pw', 'the vaulted password, templated');
  t.equal(
    mine.hosts.get('d1.example.com')!.vars.search_home,
    '/data/opensearch',
    'host_vars directory over group_vars',
  );
});

t.test(
  'inventory --list and --host: resolved values, every vaulted value and what is built from one redacted',
  async (t) => {
    const { runCli } = await import('../../helpers/cli.ts');
    const args = [...iArgs, '--vault-id', 'prod@prod-pass.txt', '--vault-password-file', 'vault-pass.txt'];
    const host = await runCli(['inventory', '--host', 'm1.example.com', ...args], {
      cwd: repo,
      env: { PATH: process.env.PATH },
    });
    t.equal(host.code, 0, host.err);
    const vars = JSON.parse(host.out);
    t.equal(vars.search_home, '/opt/opensearch');
    t.equal(vars.api_url, 'https://m1.example.com:9200');
    t.equal(vars.api_password, '********');
    t.equal(vars.vault_api_password, '********');
    t.equal(vars.monitor_token, '********');
    const list = await runCli(['inventory', '--list', ...args], { cwd: repo, env: { PATH: process.env.PATH } });
    t.equal(list.code, 0, list.err);
    t.notMatch(list.out, /S3cret|inline-T0ken|d1-backup-secret/);
    const wrong = await runCli(['inventory', '--list', ...iArgs, '--vault-password-file', 'prod-pass.txt'], {
      cwd: repo,
      env: { PATH: process.env.PATH },
    });
    t.equal(wrong.code, 2);
    t.match(wrong.err, /group_vars\/masters\/vault\.yml:1: cannot decrypt/);
  },
);
