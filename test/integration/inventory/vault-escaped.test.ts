/** A vaulted value is never printed recoverably, whatever it holds: quotes, backslashes and Jinja marks included. */
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { ansibleEnv } from '../../helpers/inventory/ansible.ts';
import { runCli } from '../../helpers/cli.ts';
import { secretForms } from '../../../src/text/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'smd-vault-esc-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

const PASSWORDS = ['S3cr"et{#Pw\\d9', "it's{{ a }}pw\\n", 'a%2Fb{% x %}c d'];

t.test('a vaulted password with Jinja marks and quotes leaks in no form, whatever smdoctor makes of it', async (t) => {
  writeFileSync(join(dir, 'pass'), 'vault-pass-long\n');
  for (const [i, pw] of PASSWORDS.entries()) {
    const inv = join(dir, `inv${i}`);
    mkdirSync(join(inv, 'group_vars', 'all'), { recursive: true });
    writeFileSync(join(inv, 'hosts.yml'), 'all:\n  hosts:\n    h1:\n      ansible_host: 127.0.0.1\n');
    const vault = join(inv, 'group_vars', 'all', 'vault.yml');
    writeFileSync(vault, `api_password: ${JSON.stringify(pw)}\nnote: "x"\n`);
    await execa('ansible-vault', ['encrypt', '--vault-password-file', join(dir, 'pass'), vault], { env: ansibleEnv });
    for (const args of [['--list'], ['--host', 'h1']]) {
      const r = await runCli(['inventory', ...args, '-i', inv, '--vault-password-file', join(dir, 'pass')]);
      const shown = r.out + r.err;
      t.ok(r.code === 0 || r.code === 2, `${args[0]}: ${r.code} ${r.err}`);
      for (const f of secretForms(pw))
        t.notOk(shown.includes(f), `${JSON.stringify(pw)} ${args[0]}: not shown as ${f}`);
    }
  }
});
