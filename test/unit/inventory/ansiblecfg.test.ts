/** Which ansible.cfg is read, as Ansible's find_ini_config_file decides, and how its settings are read. */
import t from 'tap';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ansibleSettings, findAnsibleCfg, parseCfg } from '../../../src/inventory/ansiblecfg.ts';

t.test('ANSIBLE_CONFIG (file or directory), then ./ansible.cfg, then ~/.ansible.cfg', async (t) => {
  const dir = t.testdir({ cwd: {}, home: {}, conf: {} });
  const [cwd, home, conf] = ['cwd', 'home', 'conf'].map((d) => join(dir, d));
  t.equal(findAnsibleCfg(cwd, { HOME: home }), undefined);
  writeFileSync(join(home, '.ansible.cfg'), '[defaults]\n');
  t.equal(findAnsibleCfg(cwd, { HOME: home }), join(home, '.ansible.cfg'));
  writeFileSync(join(cwd, 'ansible.cfg'), '[defaults]\n');
  t.equal(findAnsibleCfg(cwd, { HOME: home }), join(cwd, 'ansible.cfg'));
  writeFileSync(join(conf, 'ansible.cfg'), '[defaults]\n');
  t.equal(findAnsibleCfg(cwd, { HOME: home, ANSIBLE_CONFIG: conf }), join(conf, 'ansible.cfg'), 'a directory');
  t.equal(findAnsibleCfg(cwd, { HOME: home, ANSIBLE_CONFIG: join(conf, 'ansible.cfg') }), join(conf, 'ansible.cfg'));
  chmodSync(cwd, 0o777);
  t.equal(findAnsibleCfg(cwd, { HOME: home }), join(home, '.ansible.cfg'), 'a world-writable directory is skipped');
  chmodSync(cwd, 0o755);
});

t.test('configparser: sections, = and :, comments, continuation lines; errors name the line', async (t) => {
  const c = parseCfg(
    '# top\n[defaults]\nvault_identity_list = a@x,\n  b@y\nHash_Behaviour: merge ; inline\n; c\n[other]\nk=v\n',
    'f',
  );
  t.same(
    [...c.get('defaults')!],
    [
      ['vault_identity_list', 'a@x,\nb@y'],
      ['hash_behaviour', 'merge'],
    ],
  );
  t.throws(() => parseCfg('k = v\n', 'f.cfg'), { message: /before any \[section\]/, pos: { file: 'f.cfg', line: 1 } });
  t.throws(() => parseCfg('[d]\njunk\n', 'f.cfg'), {
    message: /expected key = value/,
    pos: { file: 'f.cfg', line: 2 },
  });
});

t.test('settings: the environment before ansible.cfg; paths relative to the file that set them', async (t) => {
  const dir = t.testdir({
    'ansible.cfg': '[defaults]\nvault_password_file = pw\nvault_id_match = True\nvault_identity_list = a@x, b@y\n',
  });
  const s = ansibleSettings(dir, { HOME: dir });
  t.same(s, {
    vaultIdentityList: ['a@x', 'b@y'],
    vaultPasswordFile: join(dir, 'pw'),
    vaultIdMatch: true,
    hashMerge: false,
    file: join(dir, 'ansible.cfg'),
  });
  mkdirSync(join(dir, 'sub'));
  const e = ansibleSettings(dir, {
    HOME: dir,
    ANSIBLE_VAULT_PASSWORD_FILE: '/abs/pw',
    ANSIBLE_VAULT_ID_MATCH: '0',
    ANSIBLE_VAULT_IDENTITY_LIST: 'c@z',
  });
  t.same([e.vaultPasswordFile, e.vaultIdMatch, e.vaultIdentityList], ['/abs/pw', false, ['c@z']]);
});
