/** Vault passwords from configuration, encrypted password files, vault_id_match, and vault values in JSON inventories. */
import t, { type Test } from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { vaultSecrets } from '../../../src/inventory/vaultpass.ts';
import { ansibleSettings } from '../../../src/inventory/ansiblecfg.ts';
import { ansibleEnv } from '../../helpers/inventory/ansible.ts';
import { runCli } from '../../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'smd-vsrc-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const w = (p: string, text: string) => writeFileSync(join(dir, p), text);
w('dev-pass', 'dev-pass-1\n');
w('prod-pass', 'prod-pass-1\n');
const PLAIN = 'Pr0d-api-pw';

async function ansible(cmd: string, args: string[], env: Record<string, string> = {}) {
  return execa(cmd, args, { cwd: dir, env: { ...ansibleEnv, ...env }, reject: false });
}

/** An inventory whose api_password is vaulted for `prod` and whose unused `note` is vaulted for `dev`. */
async function inventory(): Promise<string> {
  const enc = async (id: string, value: string, name: string) =>
    (await ansible('ansible-vault', ['encrypt_string', '--vault-id', id, value, '--name', name])).stdout
      .split('\n')
      .map((l) => `      ${l}`)
      .join('\n');
  w(
    'inv.yml',
    `all:\n  hosts:\n    h1:\n      ansible_host: 127.0.0.1\n${await enc('prod@prod-pass', PLAIN, 'api_password')}\n` +
      `${await enc('dev@dev-pass', 'dev-only', 'note')}\n`,
  );
  return join(dir, 'inv.yml');
}

/** Whether smdoctor read api_password as the plaintext, without printing it. */
async function readsPassword(t: Test, args: string[], env: Record<string, string>, cwd = dir) {
  const r = await runCli(['inventory', '--host', 'h1', ...args], { cwd, env: { HOME: dir, ...env } });
  t.equal(r.code, 0, r.err);
  t.notMatch(r.out + r.err, PLAIN, 'never printed');
  return r;
}

t.test('ANSIBLE_VAULT_IDENTITY_LIST and ansible.cfg vault_identity_list / vault_password_file are used', async (t) => {
  const inv = await inventory();
  // without any password: the vaulted api_password is shown redacted, nothing is decrypted
  await readsPassword(t, ['-i', inv], {});
  const real = await ansible('ansible', ['h1', '-i', inv, '-m', 'debug', '-a', 'var=api_password'], {
    ANSIBLE_VAULT_IDENTITY_LIST: `prod@${join(dir, 'prod-pass')}`,
  });
  t.match(real.stdout, PLAIN, 'ansible decrypts with the identity list alone');
  const env = { ANSIBLE_VAULT_IDENTITY_LIST: `dev@${join(dir, 'dev-pass')}, prod@${join(dir, 'prod-pass')}` };
  const s = await vaultSecrets({}, { cwd: dir, env, settings: ansibleSettings(dir, env) });
  t.same(
    s.map((x) => x.label),
    ['dev', 'prod'],
  );
  mkdirSync(join(dir, 'cfg'));
  w(
    'cfg/ansible.cfg',
    '[defaults]\nvault_identity_list = prod@../prod-pass\nvault_password_file = ../dev-pass ; dev\n',
  );
  const fromCfg = ansibleSettings(dir, { ANSIBLE_CONFIG: join(dir, 'cfg') });
  t.same(fromCfg.vaultIdentityList, ['prod@../prod-pass']);
  t.equal(fromCfg.vaultPasswordFile, join(dir, 'dev-pass'), 'a path is relative to the ansible.cfg');
  const cfgSecrets = await vaultSecrets({}, { cwd: join(dir, 'cfg'), env: {}, settings: fromCfg });
  t.same(
    cfgSecrets.map((x) => [x.label, x.password.toString()]),
    [
      ['prod', 'prod-pass-1'],
      ['default', 'dev-pass-1'],
    ],
  );
  // through the command line: ansible_user (read by smdoctor) vaulted for prod opens only with ./ansible.cfg
  const user = (
    await ansible('ansible-vault', ['encrypt_string', '--vault-id', 'prod@prod-pass', 'ops', '--name', 'ansible_user'])
  ).stdout;
  w(
    'inv2.yml',
    `all:\n  hosts:\n    h1:\n${user
      .split('\n')
      .map((l) => `      ${l}`)
      .join('\n')}\n`,
  );
  const host = ['inventory', '--list', '-i', join(dir, 'inv2.yml')];
  const without = await runCli(host, { cwd: dir, env: { HOME: dir } });
  t.equal(without.code, 2, 'no ansible.cfg here: no password');
  const withCfg = await runCli(host, { cwd: join(dir, 'cfg'), env: { HOME: dir } });
  t.equal(withCfg.code, 0, withCfg.err);
  const withEnv = await runCli(host, {
    cwd: dir,
    env: { HOME: dir, ANSIBLE_VAULT_IDENTITY_LIST: `prod@${join(dir, 'prod-pass')}` },
  });
  t.equal(withEnv.code, 0, withEnv.err);
});

t.test(
  'a configured password source that cannot be read is a warning; one on the command line is an error',
  async (t) => {
    const settings = {
      vaultIdentityList: ['gone@/nonexistent/pw', `prod@${join(dir, 'prod-pass')}`],
      vaultIdMatch: false,
    };
    const warned: string[] = [];
    const s = await vaultSecrets({}, { cwd: dir, env: {}, settings, warn: (m) => warned.push(m) });
    t.same(
      s.map((x) => x.label),
      ['prod'],
    );
    t.match(warned, [/vault password for 'gone' not read/]);
    await t.rejects(
      vaultSecrets({ vaultPasswordFile: ['/nonexistent/pw'] }, { cwd: dir, env: {}, settings }),
      /cannot read vault password file/,
    );
    await t.rejects(
      vaultSecrets(
        {},
        { cwd: dir, env: {}, settings: { vaultIdentityList: ['gone@/nonexistent/pw'], vaultIdMatch: false } },
      ),
      /cannot read vault password file/,
      'no password at all: the error',
    );
  },
);

t.test('a vault password file that is itself encrypted with an earlier password (test_file_encrypted)', async (t) => {
  w('inner-pass', 'prod-pass-1\n');
  const r = await ansible('ansible-vault', ['encrypt', '--vault-id', 'dev@dev-pass', 'inner-pass']);
  t.equal(r.exitCode, 0, r.stderr);
  const inv = await inventory();
  const args = ['--vault-id', 'dev@dev-pass', '--vault-id', 'prod@inner-pass'];
  const real = await ansible('ansible', ['h1', '-i', inv, ...args, '-m', 'debug', '-a', 'var=api_password']);
  t.match(real.stdout, PLAIN, 'ansible opens it');
  const s = await vaultSecrets({ vaultId: ['dev@dev-pass', 'prod@inner-pass'] }, { cwd: dir, env: {} });
  t.equal(s[1].password.toString(), 'prod-pass-1');
  await t.rejects(vaultSecrets({ vaultId: ['prod@inner-pass'] }, { cwd: dir, env: {} }), /no vault password was given/);
});

t.test('ANSIBLE_VAULT_ID_MATCH=1: only the password labelled with the payload vault id is tried', async (t) => {
  const inv = await inventory();
  const args = ['-i', inv, '--vault-id', `other@${join(dir, 'prod-pass')}`];
  const real = await ansible('ansible', ['h1', ...args, '-m', 'debug', '-a', 'var=api_password'], {
    ANSIBLE_VAULT_ID_MATCH: '1',
  });
  t.notMatch(real.stdout, PLAIN, 'ansible refuses the password labelled other');
  const settings = ansibleSettings(dir, { ANSIBLE_VAULT_ID_MATCH: '1' });
  t.equal(settings.vaultIdMatch, true);
  const { loadInventory } = await import('../../../src/inventory/load.ts');
  const secrets = await vaultSecrets({ vaultId: [`other@${join(dir, 'prod-pass')}`] }, { cwd: dir, env: {} });
  const matched = await loadInventory(inv, { secrets, settings });
  t.throws(() => matched.hosts.get('h1')!.vars.api_password, {
    message: /variable 'api_password'.*vault id 'prod'.*no vault password is labelled 'prod'/,
  });
  const unmatched = await loadInventory(inv, { secrets });
  t.ok(unmatched.hosts.get('h1')!.vars.api_password === PLAIN, 'without it, any password is tried');
});

t.test(
  '{"__ansible_vault": ...} in a JSON inventory (ansible-inventory --list > inv.json) is a vault value',
  async (t) => {
    const inv = await inventory();
    const list = await ansible('ansible-inventory', ['-i', inv, '--list']);
    t.equal(list.exitCode, 0, list.stderr);
    t.match(list.stdout, /__ansible_vault/);
    w('inv.json', list.stdout);
    const json = join(dir, 'inv.json');
    const r = await readsPassword(t, ['-i', json, '--vault-id', `prod@${join(dir, 'prod-pass')}`], {});
    t.equal(JSON.parse(r.out).api_password, '********', 'a secret');
    const { loadInventory } = await import('../../../src/inventory/load.ts');
    const secrets = await vaultSecrets({ vaultId: [`prod@${join(dir, 'prod-pass')}`] }, { cwd: dir, env: {} });
    const loaded = await loadInventory(json, { secrets });
    t.ok(loaded.hosts.get('h1')!.vars.api_password === PLAIN, 'decrypted as ansible does');
    t.equal(loaded.warnings, undefined, 'not taken for a plain-text password');
    // the same through a group_vars JSON file and an inventory script
    mkdirSync(join(dir, 'j/group_vars'), { recursive: true });
    const vaulted = JSON.parse(list.stdout)._meta.hostvars.h1.api_password;
    writeFileSync(join(dir, 'j/hosts'), '[g]\nh1\n');
    writeFileSync(join(dir, 'j/group_vars/g.json'), JSON.stringify({ api_password: vaulted }));
    const viaVars = await loadInventory(join(dir, 'j/hosts'), { secrets });
    t.ok(viaVars.hosts.get('h1')!.vars.api_password === PLAIN, 'group_vars/g.json');
  },
);
