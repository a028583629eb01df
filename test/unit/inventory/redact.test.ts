import t from 'tap';
import { redactVars } from '../../../src/inventory/redact.ts';
import { isSecretKey } from '../../../src/text/index.ts';

t.test('secret names', async (t) => {
  for (const k of [
    'ansible_password',
    'ansible_ssh_pass',
    'ansible_become_pass',
    'ansible_become_password',
    'api_password',
    'vault_token',
    'client_secret',
    'MyPass',
  ])
    t.ok(isSecretKey(k), k);
  for (const k of [
    'api_password_env',
    'api_password_file',
    'ansible_user',
    'passive',
    'ssh_known_hosts_file',
    'tokenizer_file',
  ])
    t.notOk(isSecretKey(k), k);
});

t.test('redactVars hides values, nested too, and leaves the rest', async (t) => {
  const v = {
    api_password: 's3cret',
    api_password_env: 'PW',
    user: 'u',
    nested: { token: 'abc', keep: 1 },
    empty_pass: '',
  };
  t.strictSame(redactVars(v), {
    api_password: '********',
    api_password_env: 'PW',
    user: 'u',
    nested: { token: '********', keep: 1 },
    empty_pass: '',
  });
  t.equal(v.api_password, 's3cret', 'input untouched');
});
