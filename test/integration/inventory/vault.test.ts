/** Ansible Vault: payloads made by the real ansible-vault, read with Node's crypto; passwords from every source. */
import t from 'tap';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { decryptVault } from '../../../src/inventory/vault.ts';
import { vaultSecrets } from '../../../src/inventory/vaultpass.ts';
import { ansibleEnv } from '../../helpers/inventory/ansible.ts';
import { runCli } from '../../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'smd-vault-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'pass'), 'hunter2-long\n');
writeFileSync(join(dir, 'other'), 'other-pass\n');
const secret = (label: string, pw: string) => ({ label, password: Buffer.from(pw) });

async function vault(...args: string[]): Promise<string> {
  const r = await execa('ansible-vault', args, { cwd: dir, env: ansibleEnv });
  return r.stdout;
}

t.test('1.1 and 1.2 files made by ansible-vault encrypt', async (t) => {
  writeFileSync(join(dir, 'a.yml'), 'x: 1\npw: "p@ss wörd"\n');
  writeFileSync(join(dir, 'b.yml'), 'y: 2\n');
  await vault('encrypt', '--vault-password-file', 'pass', 'a.yml');
  await vault('encrypt', '--vault-id', 'prod@other', 'b.yml');
  const a = readFileSync(join(dir, 'a.yml'), 'utf8');
  const b = readFileSync(join(dir, 'b.yml'), 'utf8');
  t.match(a, /^\$ANSIBLE_VAULT;1\.1;AES256\n/);
  t.match(b, /^\$ANSIBLE_VAULT;1\.2;AES256;prod\n/);
  t.equal(decryptVault(a, [secret('default', 'hunter2-long')], { file: 'a.yml' }), 'x: 1\npw: "p@ss wörd"\n');
  t.equal(
    decryptVault(b, [secret('default', 'hunter2-long'), secret('prod', 'other-pass')], { file: 'b.yml' }),
    'y: 2\n',
    'the matching vault id is tried first, any other too',
  );
  t.throws(() => decryptVault(a, [secret('default', 'wrong')], { file: 'a.yml', line: 1 }), {
    message: /cannot decrypt/,
    pos: { file: 'a.yml' },
  });
  t.throws(() => decryptVault(b, [secret('prod', 'wrong')], { file: 'b.yml' }), { message: /vault id 'prod'/ });
  t.throws(() => decryptVault(a, [], { file: 'a.yml' }), { message: /no vault password was given/ });
});

t.test(
  'encrypt_string values in an inventory: read, redacted, and a wrong password is exit 2 naming the file',
  async (t) => {
    const inline = await vault(
      'encrypt_string',
      '--vault-password-file',
      'pass',
      'Sup3r-secret-value',
      '--name',
      'db_conn',
    );
    const inv = join(dir, 'inv.yml');
    writeFileSync(
      inv,
      `all:\n  hosts:\n    h1:\n      ansible_host: 127.0.0.1\n  vars:\n${inline
        .split('\n')
        .map((l) => `    ${l}`)
        .join('\n')}\n`,
    );
    const ok = await runCli(['inventory', '--host', 'h1', '-i', inv, '--vault-password-file', join(dir, 'pass')]);
    t.equal(ok.code, 0, ok.err);
    t.equal(JSON.parse(ok.out).db_conn, '********', 'a decrypted value is a secret whatever its name');
    t.notMatch(ok.out + ok.err, /Sup3r/);
    // a vault value no setting of smdoctor reads is not decrypted: its password may be one the operator lacks
    const unread = await runCli(['inventory', '--list', '-i', inv, '--vault-password-file', join(dir, 'other')]);
    t.equal(unread.code, 0, unread.err);
    t.equal(JSON.parse(unread.out).hosts.h1.vars.db_conn, '********');
    t.equal((await runCli(['inventory', '--list', '-i', inv])).code, 0, 'no password at all: nothing needed');
    // one it reads (ansible_user), encrypted for vault id 'prod': exit 2 naming the file, the line and the id
    const user = await vault('encrypt_string', '--vault-id', 'prod@other', 'deploy-user', '--name', 'ansible_user');
    writeFileSync(
      inv,
      `all:\n  hosts:\n    h1:\n${user
        .split('\n')
        .map((l) => `      ${l}`)
        .join('\n')}\n`,
    );
    const bad = await runCli(['inventory', '--list', '-i', inv, '--vault-password-file', join(dir, 'pass')]);
    t.equal(bad.code, 2);
    t.match(
      bad.err,
      new RegExp(`${inv.replace(/[.]/g, '\\.')}:4.*variable 'ansible_user'.*cannot decrypt \\(vault id 'prod'\\)`),
    );
    const none = await runCli(['inventory', '--list', '-i', inv]);
    t.equal(none.code, 2);
    t.match(none.err, /no vault password was given/);
    const good = await runCli(['inventory', '--host', 'h1', '-i', inv, '--vault-id', `prod@${join(dir, 'other')}`]);
    t.equal(JSON.parse(good.out).ansible_user, '********', 'decrypted, and a secret');
  },
);

t.test('password sources: file, executable, label@client script, environment', async (t) => {
  const exe = join(dir, 'get-pass.sh');
  writeFileSync(exe, '#!/bin/sh\necho hunter2-long\n');
  chmodSync(exe, 0o755);
  const client = join(dir, 'keyring-client.sh');
  writeFileSync(client, '#!/bin/sh\n[ "$1" = --vault-id ] && echo "pw-for-$2"\n');
  chmodSync(client, 0o755);
  const io = { cwd: dir, env: {} };
  const s = await vaultSecrets({ vaultPasswordFile: ['pass', exe], vaultId: ['prod@keyring-client.sh', 'other'] }, io);
  t.same(
    s.map((x) => [x.label, x.password.toString()]),
    [
      ['prod', 'pw-for-prod'],
      ['default', 'other-pass'],
      ['default', 'hunter2-long'],
      ['default', 'hunter2-long'],
    ],
  );
  const fromEnv = await vaultSecrets({}, { cwd: dir, env: { ANSIBLE_VAULT_PASSWORD_FILE: join(dir, 'pass') } });
  t.same(
    fromEnv.map((x) => x.password.toString()),
    ['hunter2-long'],
  );
  await t.rejects(vaultSecrets({ vaultId: ['prompt'] }, io), { message: /needs a terminal/ });
  await t.rejects(vaultSecrets({ vaultPasswordFile: ['missing'] }, io), { message: /cannot read vault password file/ });
  const asked = await vaultSecrets({ askVaultPass: true }, { ...io, ask: async () => 'typed-pass\n' });
  t.same(
    asked.map((x) => x.password.toString()),
    ['typed-pass'],
  );
  mkdirSync(join(dir, 'empty'));
  writeFileSync(join(dir, 'empty', 'pw'), '\n');
  await t.rejects(vaultSecrets({ vaultPasswordFile: ['empty/pw'] }, io), { message: /empty/ });
});
