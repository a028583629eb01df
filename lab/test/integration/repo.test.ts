/** `lab up --layout repo`: the lab as an Ansible repository with a vaulted API password; audit and fix run against it. */
import t from 'tap';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { runCli } from '../../../test/helpers/cli.ts';
import { ansibleEnv } from '../../../test/helpers/inventory/ansible.ts';
import type { Report } from '../../../src/model/index.ts';

t.test('lab up --layout repo, then audit and fix with --vault-password-file', async (t) => {
  // the lab goes down before tap removes its directory (teardowns run in order), so no daemon or sshd outlives it
  let dir = '';
  t.teardown(() => dir && runCli(['lab', 'down', '--dir', dir]));
  dir = t.testdir({});
  const up = await runCli(['lab', 'up', '--dir', dir, '--scenario', 'broken', '--layout', 'repo']);
  t.equal(up.code, 0, up.err);
  const invDir = join(dir, 'repo', 'inventories', 'lab');
  const passFile = join(dir, 'repo', 'vault-password');
  t.equal(up.out.trim().split('\n').at(-1), `-i ${invDir} --vault-password-file ${passFile}`);
  t.equal((await stat(passFile)).mode & 0o077, 0, 'the vault password file is owner-only');

  const vaultFile = join(invDir, 'group_vars', 'all', 'vault.yml');
  t.match(await readFile(vaultFile, 'utf8'), /^\$ANSIBLE_VAULT;1\.1;AES256\n/);
  const apiPassword = (await readFile(join(dir, 'api-password'), 'utf8')).trim();
  const view = await execa('ansible-vault', ['view', '--vault-password-file', passFile, vaultFile], {
    env: ansibleEnv,
  });
  t.equal(view.stdout.trim(), `vault_api_password: ${apiPassword}`, 'ansible-vault opens what smdoctor wrote');
  t.notMatch(await readFile(join(invDir, 'group_vars', 'all', 'main.yml'), 'utf8'), /api_password_file/);

  const args = ['-i', invDir, '--vault-password-file', passFile, '--format', 'json', '--timeout', '60'];
  const audit = await runCli(['audit', ...args], { cwd: '/tmp', env: { PATH: process.env.PATH } });
  t.equal(audit.code, 1, audit.err);
  const before = JSON.parse(audit.out) as Report;
  t.ok(
    before.clusters[0]!.checks.every((c) => c.status !== 'error'),
    'every check ran with the vaulted password',
  );
  t.notMatch(audit.out + audit.err, apiPassword);

  const fix = await runCli(['fix', ...args, '--yes', '--backup-dir', join(dir, 'bk')], {
    cwd: '/tmp',
    env: { PATH: process.env.PATH },
  });
  t.equal(fix.code, 0, fix.err);
  const after = JSON.parse(fix.out) as Report & { clusters: Array<{ after?: { checks: Array<{ status: string }> } }> };
  t.same(
    after.clusters[0]!.after!.checks.map((c) => c.status),
    ['pass', 'pass', 'pass', 'pass', 'pass'],
  );

  const wrong = await runCli(['audit', '-i', invDir, '--vault-password-file', join(dir, 'api-password')], {
    cwd: '/tmp',
    env: {},
  });
  t.equal(wrong.code, 2);
  t.match(wrong.err, `${vaultFile}:1: cannot decrypt`);
});
