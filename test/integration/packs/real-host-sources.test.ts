/**
 * The host sources on this machine's real host, under dash, bash and BusyBox ash and over a real sshd: paths, files in
 * /etc, packages, listening sockets the test opens, users, groups, mounts, the engine process's limits and JVM. Each
 * value is checked against what the test process reads itself (fs, /proc, /var/lib/dpkg/status, findmnt).
 */
import t, { type Test } from 'tap';
import { copyFileSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { readHost } from '../../../src/audit/gather-host.ts';
import { needsOf, readSource } from '../../../src/packs/index.ts';
import type { Pack, PackSource } from '../../../src/model/pack.ts';
import type { HostFacts } from '../../../src/model/index.ts';
import type { Transport } from '../../../src/transport/types.ts';
import { connectTransport } from '../../../src/transport/connect.ts';
import { plantHost } from '../../helpers/audit/fakes.ts';
import { check } from '../../helpers/packs/facts.ts';
import { SHELLS, shellTransport } from '../../helpers/shells.ts';
import { startSshdFleet } from '../../helpers/sshd.ts';

const root = t.testdir({ dir: { 'a file': 'x\n' } });
symlinkSync(join(root, 'dir', 'a file'), join(root, 'link'));

// a process whose program sits in a JDK's bin/: its JVM version is read from that JDK's release file
const jdk = join(root, 'jdk17');
mkdirSync(join(jdk, 'bin'), { recursive: true });
copyFileSync('/usr/bin/sleep', join(jdk, 'bin', 'java'));
writeFileSync(join(jdk, 'release'), 'JAVA_VERSION="17.0.2"\n');
const java = spawn(join(jdk, 'bin', 'java'), ['600'], { stdio: 'ignore' });
t.teardown(() => java.kill());
const pidFile = join(root, 'engine.pid');
writeFileSync(pidFile, `${java.pid}\n`);
const cfg = plantHost(root, 'local', { engineYml: 'node.name: local\n' }, { enginePidFile: pidFile });
mkdirSync(join(cfg.searchHome, 'jdk'));
writeFileSync(join(cfg.searchHome, 'jdk', 'release'), 'JAVA_VERSION="21.0.4"\n');

const listen = (host: string, port = 0) =>
  new Promise<Server>((res, rej) => {
    const s = createServer().on('error', rej);
    s.listen(port, host, () => res(s));
  });
const port = (s: Server) => (s.address() as { port: number }).port;
const v4 = await listen('127.0.0.1');
const any = await listen('0.0.0.0');
const v6 = await listen('::1').catch(() => undefined);
const closed = await listen('127.0.0.1');
const closedPort = port(closed);
await new Promise((r) => closed.close(r));
t.teardown(() => [v4, any, v6].forEach((s) => s?.close()));

const dpkgVersion = (name: string) => {
  const para = readFileSync('/var/lib/dpkg/status', 'utf8')
    .split('\n\n')
    .find((p) => p.startsWith(`Package: ${name}\n`));
  return para && /^Status: .* installed$/m.test(para) ? /^Version: (.*)$/m.exec(para)?.[1] : undefined;
};
const passwd = readFileSync('/etc/passwd', 'utf8').split('\n');
const groupLine = readFileSync('/etc/group', 'utf8')
  .split('\n')
  .find((l) => l.split(':')[3]);
const findmnt = (p: string) => {
  const [source, type, options] = execFileSync('findmnt', ['-n', '-r', '-o', 'SOURCE,FSTYPE,OPTIONS', '--target', p], {
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .at(-1)!
    .split(' ');
  return { source: source!.replace(/\\x20/g, ' '), type: type!, options: options!.split(',') };
};
const limitRow = (row: string) => {
  const soft = readFileSync(`/proc/${java.pid}/limits`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(row))!
    .slice(row.length)
    .trim()
    .split(/\s+/)[0]!;
  return soft === 'unlimited' ? soft : Number(soft);
};
const meta = (p: string, follow = false) => {
  const s = follow ? statSync(p) : lstatSync(p);
  const type = s.isFile() ? 'file' : s.isDirectory() ? 'directory' : s.isSymbolicLink() ? 'symlink' : 'other';
  const name = (id: number, file: string) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .find((l) => l.split(':')[2] === String(id))
      ?.split(':')[0] ?? String(id);
  return {
    exists: true,
    type,
    mode: (s.mode & 0o7777).toString(8).padStart(4, '0'),
    owner: name(s.uid, '/etc/passwd'),
    group: name(s.gid, '/etc/group'),
    size: s.size,
    modified: Math.floor(s.mtimeMs / 1000),
  };
};

/** [source, what this process reads itself] */
const CASES: Array<[string, PackSource, unknown]> = [
  ['path: a file', { kind: 'path', path: '/etc/passwd' }, meta('/etc/passwd')],
  ['path: a folder', { kind: 'path', path: '/etc' }, meta('/etc')],
  ['path: a link itself', { kind: 'path', path: join(root, 'link') }, meta(join(root, 'link'))],
  ['path: a link followed', { kind: 'path', path: join(root, 'link'), follow: true }, meta(join(root, 'link'), true)],
  ['path: a name with a space', { kind: 'path', path: join(root, 'dir', 'a file') }, meta(join(root, 'dir', 'a file'))],
  ['path: missing', { kind: 'path', path: '/etc/smdoctor-no-such-file' }, { exists: false }],
  [
    'file: /etc',
    { kind: 'file', path: '/etc/debian_version', match: '^(.*)$' },
    readFileSync('/etc/debian_version', 'utf8').split('\n')[0],
  ],
  ['package: installed', { kind: 'package', name: 'openssh-server' }, dpkgVersion('openssh-server')],
  ['package: not installed', { kind: 'package', name: 'smdoctor-no-such-package' }, undefined],
  ['listening: a port', { kind: 'listening', port: port(v4) }, true],
  ['listening: its address', { kind: 'listening', port: port(v4), address: '127.0.0.1' }, true],
  ['listening: another address', { kind: 'listening', port: port(v4), address: '127.0.0.2' }, false],
  ['listening: every address', { kind: 'listening', port: port(any), address: '127.0.0.3' }, true],
  ['listening: a closed port', { kind: 'listening', port: closedPort }, false],
  ...(v6
    ? ([
        ['listening: IPv6', { kind: 'listening', port: port(v6), address: '::1' }, true],
        ['listening: IPv6 only', { kind: 'listening', port: port(v6), address: '127.0.0.1' }, false],
      ] as Array<[string, PackSource, unknown]>)
    : []),
  ...['root', 'nobody'].map((name): [string, PackSource, unknown] => {
    const f = passwd.find((l) => l.startsWith(`${name}:`))!.split(':');
    return [
      `user: ${name}`,
      { kind: 'user', name },
      { exists: true, uid: Number(f[2]), gid: Number(f[3]), home: f[5], shell: f[6] },
    ];
  }),
  ['user: missing', { kind: 'user', name: 'smdoctor-nobody' }, { exists: false }],
  ...(groupLine
    ? ([
        [
          'group: with members',
          { kind: 'group', name: groupLine.split(':')[0]! },
          { exists: true, gid: Number(groupLine.split(':')[2]), members: groupLine.split(':')[3]!.split(',') },
        ],
      ] as Array<[string, PackSource, unknown]>)
    : []),
  ['group: missing', { kind: 'group', name: 'smdoctor-nogroup' }, { exists: false }],
  ['mount: /', { kind: 'mount', path: '/' }, findmnt('/')],
  ['mount: /proc/sys', { kind: 'mount', path: '/proc/sys' }, findmnt('/proc/sys')],
  ['mount: the test folder', { kind: 'mount', path: root }, findmnt(root)],
  ['engine_process: max_file_size', { kind: 'engine_process', limit: 'max_file_size' }, limitRow('Max file size')],
  [
    'engine_process: max_address_space',
    { kind: 'engine_process', limit: 'max_address_space' },
    limitRow('Max address space'),
  ],
  [
    'engine_process: max_size_virtual_memory',
    { kind: 'engine_process', limit: 'max_size_virtual_memory' },
    limitRow('Max address space'),
  ],
  ['engine_process: jvm_version', { kind: 'engine_process', limit: 'jvm_version' }, '17.0.2'],
];
const pack: Pack = {
  name: 'acme',
  origin: 'x',
  checks: CASES.map(([, s]) => check(s, [{ kind: 'present', value: true }])),
};
const api = { reachable: true, nodes: [], nodeattrs: [], plugins: [], limitsShards: [] };

function sameAsOwn(t: Test, facts: HostFacts) {
  t.equal(facts.error, undefined, 'the read finished');
  for (const [what, s, want] of CASES)
    t.same(readSource(s, { host: facts, api, now: new Date() }), { ok: true, value: want }, what);
  const read = (s: PackSource) => readSource(s, { host: facts, api, now: new Date() });
  t.match(
    read({ kind: 'service', unit: 'ssh' }),
    { ok: false, error: /does not run systemd/ },
    'service: no systemd here',
  );
  t.match(
    read({ kind: 'file', path: '/etc/os-release', match: '(.*)' }),
    { ok: false, error: /outside its folder/ },
    'file: a link out of /etc is not read',
  );
}

const withService: Pack = {
  ...pack,
  checks: [
    ...pack.checks,
    check({ kind: 'service', unit: 'ssh' }, [{ kind: 'present', value: true }]),
    check({ kind: 'file', path: '/etc/os-release', match: '(.*)' }, [{ kind: 'present', value: true }]),
  ],
};

for (const shell of SHELLS)
  t.test(`${shell.name}: every host source as this process reads it`, async (t) => {
    const tr = shellTransport(shell);
    sameAsOwn(t, await readHost(tr, cfg, 60, undefined, needsOf([withService])));
    t.equal(tr.commands.length, 1, 'one command');
  });

t.test('over a real sshd: the same values, one command', async (t) => {
  const fleet = await startSshdFleet(t, 1);
  const over = { searchHome: cfg.searchHome, webHome: cfg.webHome, enginePidFile: pidFile };
  const tr: Transport = await connectTransport(fleet.config(0, over), {
    timeout: 60,
    connectTimeout: 60,
    env: {},
    warn: () => undefined,
  });
  t.teardown(() => tr.close());
  let n = 0;
  const counting: Transport = { ...tr, exec: (c, o) => (n++, tr.exec(c, o)) };
  sameAsOwn(t, await readHost(counting, fleet.config(0, over), 60, undefined, needsOf([withService])));
  t.equal(n, 1, 'one command on the connection');
});
