/** ansible_host and users never run as shell code through ProxyCommand, with or without an ssh binary. */
import t from 'tap';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { reachHost } from '../../../src/reach/index.ts';
import { sshConfigInventory } from '../../helpers/inventory.ts';

const dir = mkdtempSync(join(tmpdir(), 'smd-inject-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const pwned = join(dir, 'PWNED');
const cfgFile = join(dir, 'ssh_config');
writeFileSync(cfgFile, 'Host *\n  ProxyCommand /bin/nc %h %p\n');
mkdirSync(join(dir, 'empty-path'));

const BAD_HOSTS = [
  `x;/usr/bin/touch ${pwned};`,
  `x$(/usr/bin/touch ${pwned})`,
  `x\`/usr/bin/touch ${pwned}\``,
  `x|/usr/bin/touch ${pwned}`,
  '-oProxyCommand=/usr/bin/id',
  'a b',
];
const BAD_USERS = [`root;/usr/bin/touch ${pwned}`, '-lroot', 'a b', "o'brien"];

// with the system's ssh and without any (the subset parser), the same refusal
const PATHS = [process.env.PATH, join(dir, 'empty-path')];

t.test('a host or user no SSH server accepts is refused before anything runs: exit 2 naming the host', async (t) => {
  for (const PATH of PATHS) {
    const cases = [
      ...BAD_HOSTS.map((h) => ({
        what: `ansible_host ${JSON.stringify(h)}`,
        vars: `ansible_host: ${JSON.stringify(h)}`,
      })),
      ...BAD_USERS.map((u) => ({
        what: `ansible_user ${JSON.stringify(u)}`,
        vars: `ansible_host: 127.0.0.1\n      ansible_user: ${JSON.stringify(u)}`,
      })),
    ];
    for (const c of cases) {
      const inv = join(dir, 'inv.yml');
      writeFileSync(inv, `all:\n  hosts:\n    h1:\n      ${c.vars}\n      ssh_config_file: ${cfgFile}\n`);
      const r = await runCli(['audit', '-i', inv, '--timeout', '5', '--format', 'json'], {
        env: { HOME: dir, PATH, USER: 'root' },
      });
      t.equal(r.code, 2, `${c.what} (PATH ${PATH === process.env.PATH ? 'with ssh' : 'without ssh'}): ${r.err}`);
      t.match(r.err, /host 'h1'/);
      t.notOk(existsSync(pwned), `${c.what}: nothing ran`);
    }
  }
});

t.test('every token substituted into ProxyCommand is quoted for the shell', async (t) => {
  const home = join(dir, "a home's dir");
  mkdirSync(home, { recursive: true });
  const cfg2 = join(dir, 'ssh_config2');
  writeFileSync(cfg2, 'Host *\n  ProxyCommand /bin/nc -X connect %h %p %d %r\n');
  for (const PATH of PATHS) {
    const inv = sshConfigInventory(dir, cfg2, { h1: { ansible_host: 'db-1.example', ansible_user: 'deploy' } });
    const cfg = reachHost(inv, 'h1', { HOME: home, PATH, USER: 'root' });
    t.equal(
      cfg.ssh?.proxyCommand,
      `/bin/nc -X connect db-1.example 22 '${dir}/a home'\\''s dir' deploy`,
      `PATH ${PATH === process.env.PATH ? 'with ssh' : 'without ssh'}`,
    );
  }
});
