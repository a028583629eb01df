/** The host sources' parsers over what hosts print (hostile lines too), and what the loader refuses, positioned. */
import t from 'tap';
import { parseStat } from '../../../src/packs/host/path-stat.ts';
import { parseServices, serviceLines, unitName } from '../../../src/packs/host/service.ts';
import { packageLines, parsePackages } from '../../../src/packs/host/package.ts';
import { isListening, parseListen, parseListeners } from '../../../src/packs/host/listening.ts';
import { findGroup, findUser } from '../../../src/packs/host/accounts.ts';
import { mountOf } from '../../../src/packs/host/mount.ts';
import { secretLooking } from '../../../src/packs/host/abs-path.ts';
import { parsePack } from '../../../src/packs/load/load.ts';

t.test('stat lines: type and mode from the raw mode, names with spaces, UNKNOWN owners as numbers', async (t) => {
  const m = parseStat(
    '81a0 0 998 root opensearch 12 1700000000 /etc/opensearch/opensearch.yml\n' +
      'a1ff 0 0 root root 21 1 /etc/os-release\n41ed 1234 1234 UNKNOWN UNKNOWN 4096 2 /srv/a b\n89ed 0 0 root root 1 3 /usr/bin/su\ngarbage\n',
  );
  t.same(m.get('/etc/opensearch/opensearch.yml'), {
    exists: true,
    type: 'file',
    mode: '0640',
    owner: 'root',
    group: 'opensearch',
    size: 12,
    modified: 1700000000,
  });
  t.equal(m.get('/etc/os-release')?.type, 'symlink');
  t.match(m.get('/srv/a b'), { type: 'directory', mode: '0755', owner: '1234', group: '1234' });
  t.equal(m.get('/usr/bin/su')?.mode, '4755', 'setuid kept');
  t.equal(m.size, 4);
});

t.test('systemctl show: by every name a unit has, not-found absent, infinity as unlimited', async (t) => {
  const text = [
    'Id=ssh.service\nNames=ssh.service sshd.service\nLoadState=loaded\nActiveState=active\nUnitFileState=enabled\nUser=\nLimitNOFILE=524288\nLimitMEMLOCK=8388608\nLimitNPROC=infinity',
    'Id=opensearch.service\nNames=opensearch.service\nLoadState=loaded\nActiveState=failed\nUnitFileState=disabled\nUser=opensearch\nLimitNOFILE=65535\nLimitMEMLOCK=infinity\nLimitNPROC=4096',
    'Id=nope.service\nNames=nope.service\nLoadState=not-found\nActiveState=inactive\nUnitFileState=\nUser=\nLimitNOFILE=1024\nLimitMEMLOCK=8388608\nLimitNPROC=1',
  ].join('\n\n');
  const m = parseServices(`${text}\n`);
  t.same(m.get(unitName('sshd')), {
    active: true,
    enabled: true,
    user: 'root',
    limit_nofile: 524288,
    limit_memlock: 8388608,
    limit_nproc: 'unlimited',
  });
  t.match(m.get(unitName('opensearch')), {
    active: false,
    enabled: false,
    user: 'opensearch',
    limit_memlock: 'unlimited',
  });
  t.equal(m.get('nope.service'), undefined);
  t.equal(unitName('opensearch@a.service'), 'opensearch@a.service');
  t.match(serviceLines(["it's"], 'k service all')[0], `'it'\\''s'`, 'quoted');
  t.same(serviceLines([], 'x'), [], 'no unit, no systemctl');
});

t.test('packages: installed only; rpm lines; "not installed" lines ignored', async (t) => {
  const d = parsePackages(
    'openssh-server\tinstall ok installed\t1:9.2p1-2\nold\tdeinstall ok config-files\t1.0\nhalf\tinstall ok half-installed\t2\nheld\thold ok installed\t3\n',
    'dpkg',
  );
  t.same(
    [...d],
    [
      ['openssh-server', '1:9.2p1-2'],
      ['held', '3'],
    ],
  );
  t.same([...parsePackages('bash\t5.1.8-6.el9\npackage nope is not installed\n', 'rpm')], [['bash', '5.1.8-6.el9']]);
  t.match(packageLines(['a', 'b'], (p) => `k package ${p}`)[0], /dpkg-query -W .* -- 'a' 'b'/);
});

t.test('listening: both byte orders, IPv6, wildcards, LISTEN only', async (t) => {
  const tcp =
    '  sl  local_address rem_address   st\n' +
    '   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000\n' + // 127.0.0.1:8080 (little-endian host)
    '   1: 00000000:2382 00000000:0000 0A 0\n' + // 0.0.0.0:9090
    '   2: 0100007F:0016 0100007F:C350 01 0\n'; // established, not listening
  const tcp6 = '  sl\n   0: 00000000000000000000000001000000:2328 00000000000000000000000000000000:0000 0A 0\n'; // [::1]:9000
  const l = parseListeners([tcp, tcp6]);
  t.ok(isListening(l, { port: 8080, address: '127.0.0.1' }));
  t.notOk(isListening(l, { port: 8080, address: '10.0.0.1' }));
  t.ok(isListening(l, { port: 9090, address: '10.0.0.1' }), '0.0.0.0 takes every IPv4 address');
  t.notOk(isListening(l, { port: 22 }), 'an established socket is not a listener');
  t.ok(isListening(l, { port: 9000, address: '::1' }));
  t.notOk(isListening(l, { port: 9000, address: '127.0.0.1' }));
  t.ok(
    isListening(parseListeners(['x\n 0: 7F000001:1F90 0 0A\n']), { port: 8080, address: '127.0.0.1' }),
    'big-endian host',
  );
  t.same(parseListen('[::1]:9200'), { port: 9200, address: '::1' });
  t.same(parseListen(9200), { port: 9200 });
  for (const bad of ['0', '70000', '1.2.3:80', '300.1.1.1:80', 'host:80', '9200; rm -rf /', '[zz]:1'])
    t.equal(parseListen(bad), undefined, bad);
});

t.test('users and groups: the first line wins, odd lines skipped', async (t) => {
  const passwd =
    'bad line\nopensearch:x:998:997:OpenSearch,,,:/usr/share/opensearch:/usr/sbin/nologin\nopensearch:x:1:1::/:/bin/sh\n';
  t.same(findUser(passwd, 'opensearch'), {
    exists: true,
    uid: 998,
    gid: 997,
    home: '/usr/share/opensearch',
    shell: '/usr/sbin/nologin',
  });
  t.same(findUser(passwd, 'root'), { exists: false });
  t.same(findGroup('opensearch:x:997:\nadm:x:4:syslog,alice\n', 'adm'), {
    exists: true,
    gid: 4,
    members: ['syslog', 'alice'],
  });
  t.same(findGroup('opensearch:x:997:\n', 'opensearch'), { exists: true, gid: 997, members: [] });
});

t.test('mounts: the longest mount point, escaped names, the last mount on a point', async (t) => {
  const mounts =
    '/dev/sda1 / ext4 rw,relatime 0 0\n/dev/sdb1 /var/lib ext4 rw 0 0\n/dev/sdc1 /var/lib/open\\040search xfs rw,noatime 0 0\n' +
    'tmpfs /var/lib ext4 ro 0 0\n';
  t.same(mountOf(mounts, '/var/lib/open search/nodes'), {
    source: '/dev/sdc1',
    type: 'xfs',
    options: ['rw', 'noatime'],
  });
  t.same(
    mountOf(mounts, '/var/lib/opensearch'),
    { source: 'tmpfs', type: 'ext4', options: ['ro'] },
    'not a name prefix',
  );
  t.same(mountOf(mounts, '/etc'), { source: '/dev/sda1', type: 'ext4', options: ['rw', 'relatime'] });
});

t.test('secret-looking names', async (t) => {
  for (const p of [
    '/etc/shadow',
    '/etc/gshadow-',
    '/etc/opensearch/esnode-key.pem',
    '/etc/ssl/private/a.pem',
    'config/opensearch.keystore',
    '/root/.ssh/id_ed25519',
    '/etc/app/db_password.txt',
    '/etc/x/api-token',
    '/etc/x/node.key',
    '/etc/x/truststore.jks',
  ])
    t.ok(secretLooking(p), p);
  for (const p of [
    '/etc/passwd',
    '/etc/group',
    '/etc/opensearch/opensearch.yml',
    '/etc/sysctl.conf',
    'config/esnode.pem',
    '/usr/lib/systemd/system/opensearch.service',
  ])
    t.equal(secretLooking(p), undefined, p);
});

t.test('the loader: host sources read, hostile names refused at file:line:col', async (t) => {
  const yml = (read: string) =>
    `smdoctor_pack: 1\nname: h\nchecks:\n  - id: c\n    title: T\n    severity: low\n    why: W\n    read: ${read}\n    expect: { present: true }\n`;
  const ok = (read: string) => parsePack(yml(read), 'p.yml');
  t.same(ok('{path: {path: /etc/x, follow: true}, field: mode}').pack?.checks[0]?.read, {
    kind: 'path',
    path: '/etc/x',
    follow: true,
    field: 'mode',
  });
  t.same(ok('{listening: "127.0.0.1:9200"}').pack?.checks[0]?.read, {
    kind: 'listening',
    port: 9200,
    address: '127.0.0.1',
  });
  t.same(ok('{package: openssh-server}').pack?.checks[0]?.read, { kind: 'package', name: 'openssh-server' });
  t.same(ok('{file: {path: /etc/default/opensearch, match: "^X=(.*)"}}').pack?.checks[0]?.read, {
    kind: 'file',
    path: '/etc/default/opensearch',
    match: '^X=(.*)',
  });
  for (const [read, why] of [
    ['{file: {path: /etc/shadow, match: x}}', /password database/],
    ['{file: {path: config/opensearch.keystore, match: x}}', /key or a keystore/],
    ['{path: /etc/../root}', /not an absolute path/],
    ['{path: etc/x}', /not an absolute path/],
    ['{service: "-H evil"}', /not a systemd unit name/],
    ['{service: "x\'; reboot; \'"}', /not a systemd unit name/],
    ['{package: "open*"}', /not a package name/],
    ['{package: "--root=/tmp"}', /not a package name/],
    ['{user: "a:b"}', /not a user name/],
    ['{mount: "/a\\nb"}', /control character/],
    ['{listening: "80 && x"}', /not a port/],
    ['{engine_process: max_stack}', /must be one of/],
  ] as const) {
    const r = parsePack(yml(read), 'p.yml');
    t.equal(r.pack, undefined, read);
    t.match(r.problems[0], { file: 'p.yml', line: 8, message: why }, read);
    t.ok((r.problems[0]?.col ?? 0) > 0, `${read}: a column`);
  }
});
