import t from 'tap';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseSshArgs, shellSplit } from '../../../src/transport/ssh-args.ts';
import { resolveSsh, subsetResolve } from '../../../src/transport/ssh-config.ts';
import { parseJumpSpec } from '../../../src/reach/ssh-access.ts';
import { newRouteCache, reachHost as hostConfig } from '../../../src/reach/index.ts';
import type { Vars } from '../../../src/inventory/types.ts';
import { sshConfigInventory } from '../../helpers/inventory.ts';

const dir = await mkdtemp(join(tmpdir(), 'smdoctor-sshcfg-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));
const home = join(dir, 'home');
await mkdir(join(home, '.ssh'), { recursive: true });
await writeFile(join(home, '.ssh', 'id_ed25519'), 'placeholder');
await writeFile(join(dir, 'k1'), 'k');
await writeFile(join(dir, 'k2'), 'k');
const cfgFile = join(dir, 'ssh_config');
await writeFile(
  cfgFile,
  [
    'Host web-*',
    '  User deploy',
    `  IdentityFile ${join(dir, 'k1')}`,
    `  IdentityFile ${join(dir, 'k2')}`,
    '  IdentityFile ~/.ssh/missing',
    'Host web-1',
    '  HostName 10.20.0.11',
    '  Port 2201',
    '  User ignored-second-match',
    '  ProxyJump ops@bastion:2022,inner',
    'Host bastion',
    '  HostName 192.0.2.10',
    '  StrictHostKeyChecking accept-new',
    `  UserKnownHostsFile ${join(dir, 'bastion_known_hosts')}`,
    'Host inner',
    '  HostName 10.20.0.2',
    '  ForwardAgent yes',
    'Host db',
    '  HostName db.internal',
    '  ProxyCommand nc -X connect %h %p',
    '  HostKeyAlias db-key',
    '  ConnectTimeout 7',
    '  ServerAliveInterval 30',
    '',
  ].join('\n'),
);
const env = { HOME: home, PATH: process.env.PATH, USER: 'root' };

const inv = (vars: Record<string, Vars>) => sshConfigInventory(dir, cfgFile, vars);

t.test('shellSplit reads quotes and backslashes as shlex does', async (t) => {
  t.same(shellSplit(`-o ProxyCommand="ssh -W %h:%p bastion" -J 'a b' x\\ y`), [
    '-o',
    'ProxyCommand=ssh -W %h:%p bastion',
    '-J',
    'a b',
    'x y',
  ]);
  t.throws(() => shellSplit('-o "open'), /unterminated/);
});

t.test('parseSshArgs keeps the honoured options and names the others', async (t) => {
  const r = parseSshArgs(
    '-J j1,j2 -o ProxyJump=x -o StrictHostKeyChecking=no -o Compression=yes -F ~/cfg -C -p 2200 -oUser=u',
  );
  t.same(r.args, ['-J', 'j1,j2', '-o', 'ProxyJump=x', '-o', 'StrictHostKeyChecking=no', '-p', '2200', '-o', 'User=u']);
  t.equal(r.configFile, '~/cfg');
  t.same(r.ignored, ['-o Compression', '-C']);
  t.throws(() => parseSshArgs('-J'), /needs a value/);
});

t.test('parseJumpSpec', async (t) => {
  t.same(parseJumpSpec('ops@bastion:2022'), { user: 'ops', host: 'bastion', port: 2022 });
  t.same(parseJumpSpec('ssh://[2001:db8::1]:22'), { host: '2001:db8::1', port: 22 });
  t.same(parseJumpSpec('inner'), { host: 'inner' });
});

t.test('a Host alias resolves as ssh -G does: HostName, first User wins, several keys, the jump chain', async (t) => {
  const cfg = hostConfig(inv({ 'web-1': {} }), 'web-1', env);
  t.equal(cfg.address, '10.20.0.11');
  t.equal(cfg.port, 2201);
  t.equal(cfg.user, 'deploy');
  t.equal(cfg.apiUrl, 'https://10.20.0.11:9200', 'the default API address follows HostName');
  t.same(cfg.ssh!.identityFiles, [join(dir, 'k1'), join(dir, 'k2')], 'missing files are skipped, order kept');
  const hops = cfg.ssh!.jumps.map((j) => ({
    name: j.name,
    address: j.address,
    port: j.port,
    user: j.user,
    policy: j.hostKeyChecking,
    known: j.knownHostsFile,
    keys: j.ssh!.identityFiles,
    key: j.privateKeyFile,
  }));
  t.same(
    hops,
    [
      {
        name: 'bastion',
        address: '192.0.2.10',
        port: 2022,
        user: 'ops',
        policy: 'accept-new',
        known: join(dir, 'bastion_known_hosts'),
        keys: [join(home, '.ssh', 'id_ed25519')],
        key: undefined,
      },
      {
        name: 'inner',
        address: '10.20.0.2',
        port: 22,
        user: 'root',
        policy: 'strict',
        known: join(home, '.ssh', 'known_hosts'),
        keys: [join(home, '.ssh', 'id_ed25519')],
        key: undefined,
      },
    ],
    "each hop has its own configuration and default keys, never the target's IdentityFile",
  );
  t.match(cfg.ssh!.warnings.join('\n'), /sets forwardagent/);
});

t.test('inventory variables win over the file', async (t) => {
  const cfg = hostConfig(
    inv({ 'web-1': { ansible_user: 'admin', ansible_port: 22, ansible_host: 'web-1', ssh_host_key_checking: 'off' } }),
    'web-1',
    env,
  );
  t.equal(cfg.user, 'admin');
  t.equal(cfg.port, 22);
  t.equal(cfg.address, '10.20.0.11', 'ansible_host names the Host block; its HostName still applies, as with ssh');
  t.equal(cfg.hostKeyChecking, 'off');
});

t.test('ProxyCommand tokens, HostKeyAlias, timeouts; common args on top', async (t) => {
  const cfg = hostConfig(inv({ db: { ansible_user: 'u1' } }), 'db', env);
  t.equal(cfg.ssh!.proxyCommand, 'nc -X connect db.internal 22');
  t.equal(cfg.ssh!.hostKeyAlias, 'db-key');
  t.equal(cfg.ssh!.connectTimeout, 7);
  t.equal(cfg.ssh!.serverAliveInterval, 30);
  const viaArgs = hostConfig(
    inv({ db: { ansible_ssh_common_args: '-o ProxyCommand="ssh -W %h:%p %r@gw" -C' } }),
    'db',
    env,
  );
  t.equal(viaArgs.ssh!.proxyCommand, 'ssh -W db.internal:22 root@gw', 'the command line wins over the file');
  t.match(viaArgs.ssh!.warnings, [/ansible_ssh_common_args: -C is not supported/]);
  const j = hostConfig(inv({ db: { ansible_ssh_extra_args: '-J inner' } }), 'db', env);
  t.same(
    j.ssh!.jumps.map((h) => h.address),
    ['10.20.0.2'],
  );
  t.equal(j.ssh!.proxyCommand, undefined, 'a ProxyJump replaces the ProxyCommand');
});

t.test('no file, no args: the host is as before', async (t) => {
  const plain = hostConfig(
    { ...inv({ h: {} }), hosts: new Map([['h', { name: 'h', groups: [], vars: {} }]]) },
    'h',
    env,
  );
  t.equal(plain.ssh, undefined);
  t.equal(plain.address, 'h');
});

t.test('the subset parser agrees with ssh -G on the honoured options', async (t) => {
  const keys = [
    'hostname',
    'user',
    'port',
    'identityfile',
    'proxyjump',
    'proxycommand',
    'hostkeyalias',
    'stricthostkeychecking',
    'connecttimeout',
  ];
  for (const dest of ['web-1', 'web-2', 'bastion', 'db', 'other']) {
    for (const args of [[], ['-l', 'cli', '-o', 'Port=2']]) {
      const q = { dest, configFile: cfgFile, args, env };
      const viaSsh = resolveSsh(q);
      t.equal(viaSsh.via, 'ssh');
      const sub = subsetResolve(q);
      for (const k of keys) {
        const want = viaSsh.options.get(k);
        if (k === 'identityfile' && !want?.some((f) => f.startsWith('/'))) continue; // defaults differ by design
        if (k === 'connecttimeout' && want?.[0] === 'none') continue;
        t.same(sub.get(k), want, `${dest} ${args.join(' ')}: ${k}`);
      }
    }
  }
});

t.test('without an ssh binary: the subset parser, with a warning', async (t) => {
  const cfg = hostConfig(inv({ 'web-1': {} }), 'web-1', { ...env, PATH: join(dir, 'empty-path') });
  t.equal(cfg.address, '10.20.0.11');
  t.equal(cfg.user, 'deploy');
  t.same(
    cfg.ssh!.jumps.map((j) => `${j.user}@${j.address}:${j.port}`),
    ['ops@192.0.2.10:2022', 'root@10.20.0.2:22'],
  );
  t.match(cfg.ssh!.warnings.join('\n'), /no ssh binary found: .*subset parser/);
});

t.test('a run keeps what ssh -G answered; the next run (a serve reload) reads an edited file again', async (t) => {
  const file = join(dir, 'edited_config');
  await writeFile(file, 'Host app\n  HostName 10.30.0.1\n  Port 2201\n');
  const i = sshConfigInventory(dir, file, { app: {} });
  const first = newRouteCache();
  t.teardown(() => first.close());
  t.same(
    [hostConfig(i, 'app', env, { routes: first }).address, hostConfig(i, 'app', env, { routes: first }).port],
    ['10.30.0.1', 2201],
  );
  await writeFile(file, 'Host app\n  HostName 10.30.0.2\n  Port 2202\n  ProxyJump ops@10.30.0.9\n');
  const again = hostConfig(i, 'app', env, { routes: first });
  t.same([again.address, again.port, again.ssh!.jumps.length], ['10.30.0.1', 2201, 0], 'the run’s answer holds');
  const next = newRouteCache();
  t.teardown(() => next.close());
  const edited = hostConfig(i, 'app', env, { routes: next });
  t.same(
    [edited.address, edited.port, edited.ssh!.jumps.map((j) => `${j.user}@${j.address}`)],
    ['10.30.0.2', 2202, ['ops@10.30.0.9']],
  );
  first.retire();
  t.equal(first.resolutions.size, 0, 'a retired run forgets its answers');
  t.equal(hostConfig(i, 'app', env).address, '10.30.0.2', 'without a run, asked afresh');
});
