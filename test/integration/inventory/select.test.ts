import t from 'tap';
import { join } from 'node:path';
import { parseInventory } from '../../../src/inventory/load.ts';
import { selectHosts } from '../../../src/inventory/select.ts';
import { ansibleEnv } from '../../helpers/inventory/ansible.ts';
import { execa } from 'execa';

const INI = `mail\n\n[web]\nweb[1:3]\n\n[db]\ndb1\nweb3\n\n[east]\nweb1\ndb1\n\n[prod:children]\nweb\ndb\n`;
const inv = parseInventory(INI, 'sel.ini');

const cases: Array<[string | undefined, string[]]> = [
  [undefined, ['mail', 'web1', 'web2', 'web3', 'db1']],
  ['all', ['mail', 'web1', 'web2', 'web3', 'db1']],
  ['web', ['web1', 'web2', 'web3']],
  ['db1', ['db1']],
  ['web*', ['web1', 'web2', 'web3']],
  ['web:db', ['web1', 'web2', 'web3', 'db1']],
  ['web,db', ['web1', 'web2', 'web3', 'db1']],
  ['prod:&east', ['web1', 'db1']],
  ['prod:!db', ['web1', 'web2']],
  ['!web', ['mail', 'db1']],
  ['ungrouped', ['mail']],
  ['~web[12]', ['web1', 'web2']],
  ['web[0]', ['web1']],
  ['web[1:2]', ['web2', 'web3']],
  ['*:!prod', ['mail']],
];
for (const [p, want] of cases) {
  t.test(`--limit ${p}`, async (t) => t.strictSame(selectHosts(inv, p), want));
}

t.test('agrees with `ansible PATTERN --list-hosts` on host sets', async (t) => {
  const dir = t.testdir({ 'sel.ini': INI });
  for (const p of ['web:db', 'web,db', 'prod:&east', 'prod:!db', 'web*', '~web[12]', 'web[1:2]', '*:!prod']) {
    const r = await execa('ansible', [p, '-i', join(dir, 'sel.ini'), '--list-hosts'], { env: ansibleEnv });
    const theirs = r.stdout
      .split('\n')
      .slice(1)
      .map((l) => l.trim())
      .filter(Boolean);
    t.strictSame(selectHosts(inv, p).sort(), theirs.sort(), p);
  }
});

t.test('a pattern that matches nothing names the pattern', async (t) => {
  t.throws(() => selectHosts(inv, 'nosuch'), { code: 'INPUT', message: /'nosuch' matches no host or group/ });
  t.throws(() => selectHosts(inv, 'web:!nosuch:&gone'), {
    code: 'INPUT',
    message: /'gone', 'nosuch' match no|'nosuch', 'gone' match no/,
  });
  t.throws(() => selectHosts(inv, 'web:&db1'), { code: 'INPUT', message: /selects no hosts/ });
});

t.test(
  '--limit that Ansible reads as one address (:::, a:::b) selects nothing, as `ansible --limit` does',
  async (t) => {
    const dir = t.testdir({ 'sel.ini': INI });
    for (const p of [':::', 'a:::b']) {
      const r = await execa('ansible', ['all', '-i', join(dir, 'sel.ini'), '--limit', p, '--list-hosts'], {
        env: ansibleEnv,
        reject: false,
      });
      t.not(r.exitCode, 0, `ansible refuses ${p}`);
      t.throws(() => selectHosts(inv, p), { code: 'INPUT', message: /matches no host or group/ }, p);
    }
    // and what Ansible splits or drops, we do too
    for (const p of [':', 'web db', 'web,,db']) {
      const r = await execa('ansible', ['all', '-i', join(dir, 'sel.ini'), '--limit', p, '--list-hosts'], {
        env: ansibleEnv,
      });
      const theirs = r.stdout
        .split('\n')
        .slice(1)
        .map((l) => l.trim())
        .filter(Boolean);
      t.strictSame(selectHosts(inv, p).sort(), theirs.sort(), p);
    }
  },
);

t.test('an empty inventory says it has no hosts, not that --limit matched nothing', async (t) => {
  const empty = parseInventory('# nothing yet\n', 'empty.ini');
  t.throws(() => selectHosts(empty), {
    code: 'INPUT',
    message:
      /^the inventory empty\.ini has no hosts \(groups only: are its host lines commented out\?\): nothing to audit or fix$/,
  });
});
