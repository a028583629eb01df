/**
 * The packs' host reads on this machine's REAL /proc and /sys (no proc_root), under dash, bash and BusyBox ash: each
 * value is what the test process reads itself. dash's `read` takes one byte at a time and a /proc/sys file answers
 * only a read at offset 0, so a shell-read sysctl came back as its first digit.
 */
import t, { type Test } from 'tap';
import { mkdirSync, readFileSync, writeFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { readHost } from '../../../src/audit/gather-host.ts';
import { judgeCheck, loadPacks, needsOf, readSource } from '../../../src/packs/index.ts';
import type { Pack, PackSource } from '../../../src/model/pack.ts';
import type { HostFacts } from '../../../src/model/index.ts';
import { plantHost } from '../../helpers/audit/fakes.ts';
import { check, cluster } from '../../helpers/packs/facts.ts';
import { SHELLS, shellTransport } from '../../helpers/shells.ts';
import { startSshdFleet } from '../../helpers/sshd.ts';
import { connectTransport } from '../../../src/transport/connect.ts';

const SYSCTLS = [
  'vm.max_map_count',
  'vm.swappiness',
  'vm.overcommit_memory',
  'fs.file-max',
  'fs.nr_open',
  'kernel.pid_max',
  'kernel.ostype',
  'kernel.osrelease',
  'net.core.somaxconn',
  'net.ipv4.tcp_retries2',
  'net.ipv4.ip_local_port_range',
].filter((s) => {
  try {
    readFileSync(`/proc/sys/${s.replaceAll('.', '/')}`);
    return true;
  } catch {
    return false;
  }
});
const LIMITS = ['max_locked_memory', 'max_open_files', 'max_processes'] as const;

const sources: PackSource[] = [
  ...SYSCTLS.map((name): PackSource => ({ kind: 'sysctl', name })),
  { kind: 'memory' },
  ...LIMITS.map((limit): PackSource => ({ kind: 'engine_process', limit })),
  { kind: 'engine_process', limit: 'started_at' },
  { kind: 'jvm_option', option: '-Xss' },
  { kind: 'file', path: 'config/small.txt', match: '^b=(.*)' },
  { kind: 'file_modified', path: 'config/small.txt' },
  // a symlinked folder: out of the home (to this machine's /etc) refused as `file` refuses it, within it followed
  { kind: 'file_modified', path: 'etc/passwd' },
  { kind: 'file_modified', path: 'config/etc/passwd' },
  { kind: 'file', path: 'etc/passwd', match: '^root' },
  { kind: 'file_modified', path: 'conf/small.txt' },
];
const pack: Pack = {
  name: 'acme',
  origin: 'x',
  checks: sources.map((s) => check(s, [{ kind: 'present', value: true }])),
};

const root = t.testdir({});
const pidFile = join(root, 'engine.pid');
// the engine process is this test's own: its limits and stat are real, and read here too
writeFileSync(pidFile, `${process.pid}\n`);
const cfg = plantHost(root, 'local', { engineYml: 'node.name: local\n' }, { enginePidFile: pidFile });
mkdirSync(join(cfg.searchHome, 'jdk'));
// no newline at the end: the bytes as they are
writeFileSync(join(cfg.searchHome, 'jdk', 'release'), 'IMPLEMENTOR="x"\nJAVA_VERSION="21.0.4"');
writeFileSync(join(cfg.searchHome, 'config', 'jvm.options'), '21-:-Xss2m\n');
writeFileSync(join(cfg.searchHome, 'config', 'small.txt'), 'a=1\nb=two words\n\n  c\t= 3');
symlinkSync('/etc', join(cfg.searchHome, 'etc'));
symlinkSync('/etc', join(cfg.searchHome, 'config', 'etc'));
symlinkSync('config', join(cfg.searchHome, 'conf'));

const own = (path: string) => readFileSync(path, 'latin1');
const sysctlText = (s: string) => own(`/proc/sys/${s.replaceAll('.', '/')}`);
const asValue = (text: string) => {
  const v = text.trim();
  return /^-?\d+$/.test(v) ? Number(v) : v;
};
const api = { reachable: true, nodes: [], nodeattrs: [], plugins: [], limitsShards: [] };

t.ok(SYSCTLS.includes('vm.max_map_count'), 'this machine has vm.max_map_count');

/** Every value of the facts against this process's own reads. */
function sameAsOwn(t: Test, facts: HostFacts) {
  t.equal(facts.error, undefined, 'the read finished');
  const r = facts.packReads!;
  const read = (s: PackSource) => readSource(s, { host: facts, api, now: new Date() });
  for (const s of SYSCTLS) {
    t.equal(r.sysctls[s]?.text, sysctlText(s), `sysctl ${s}: the bytes cat gives`);
    t.same(read({ kind: 'sysctl', name: s }), { ok: true, value: asValue(sysctlText(s)) }, `sysctl ${s}`);
  }
  const memTotal = Number(/^MemTotal:\s+(\d+) kB/m.exec(own('/proc/meminfo'))![1]) * 1024;
  t.same(read({ kind: 'memory' }), { ok: true, value: memTotal }, 'memory: MemTotal');
  t.equal(r.limits?.text, own(`/proc/${process.pid}/limits`), 'the process limits table, byte for byte');
  for (const limit of LIMITS) {
    const row = {
      max_locked_memory: 'Max locked memory',
      max_open_files: 'Max open files',
      max_processes: 'Max processes',
    }[limit];
    const soft = own(`/proc/${process.pid}/limits`)
      .split('\n')
      .find((l) => l.startsWith(row))!
      .slice(row.length)
      .trim()
      .split(/\s+/)[0]!;
    t.same(
      read({ kind: 'engine_process', limit }),
      { ok: true, value: soft === 'unlimited' ? soft : Number(soft) },
      limit,
    );
  }
  const field22 = (stat: string) => stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  t.equal(field22(r.procStat!.text!), field22(own(`/proc/${process.pid}/stat`)), 'the process start (pid file, stat)');
  t.equal(r.bootStat?.text?.match(/^btime .*$/m)?.[0], own('/proc/stat').match(/^btime .*$/m)?.[0], '/proc/stat btime');
  t.equal(r.jdkRelease?.text, own(join(cfg.searchHome, 'jdk', 'release')), 'jdk/release, byte for byte');
  t.same(
    read({ kind: 'jvm_option', option: '-Xss' }),
    { ok: true, value: 2 * 1024 ** 2 },
    'jvm.options by the JDK major',
  );
  t.equal(
    r.files['search:config/small.txt']?.text,
    own(join(cfg.searchHome, 'config', 'small.txt')),
    'a small file, byte for byte',
  );
  t.same(
    read({ kind: 'file_modified', path: 'config/small.txt' }),
    { ok: true, value: Math.floor(statSync(join(cfg.searchHome, 'config', 'small.txt')).mtimeMs / 1000) },
    'file_modified',
  );
  t.ok(statSync('/etc/passwd').mtimeMs > 0, 'the file out there exists');
  for (const path of ['etc/passwd', 'config/etc/passwd'])
    t.match(
      read({ kind: 'file_modified', path }),
      { ok: false, error: /resolves outside its folder/ },
      `file_modified ${path}: a symlinked folder out of the home is refused`,
    );
  t.match(read({ kind: 'file', path: 'etc/passwd', match: '^root' }), { ok: false }, 'as the file source refuses it');
  t.same(
    read({ kind: 'file_modified', path: 'conf/small.txt' }),
    { ok: true, value: Math.floor(statSync(join(cfg.searchHome, 'config', 'small.txt')).mtimeMs / 1000) },
    'a symlinked folder within the home is followed',
  );
}

for (const shell of SHELLS)
  t.test(`${shell.name}: every value as the kernel and the files hold it`, async (t) => {
    sameAsOwn(t, await readHost(shellTransport(shell), cfg, 60, undefined, needsOf([pack])));
  });

t.test('over a real sshd (its /bin/sh): the same values', async (t) => {
  const fleet = await startSshdFleet(t, 1);
  const over = { searchHome: cfg.searchHome, webHome: cfg.webHome, enginePidFile: pidFile };
  // the handshake with a local sshd: seconds on a loaded machine
  const tr = await connectTransport(fleet.config(0, over), {
    timeout: 60,
    connectTimeout: 60,
    env: {},
    warn: () => undefined,
  });
  t.teardown(() => tr.close());
  sameAsOwn(t, await readHost(tr, fleet.config(0, over), 60, undefined, needsOf([pack])));
});

t.test('the fleet pack judges vm.max_map_count by the kernel value, under each shell', async (t) => {
  const [fleet] = await loadPacks(['builtin:fleet'], { cwd: root, maxBytes: 1 << 20 });
  const c = fleet!.checks.find((x) => x.id === 'vm-max-map-count')!;
  const kernel = Number(sysctlText('vm.max_map_count'));
  for (const shell of SHELLS) {
    const facts = await readHost(shellTransport(shell), cfg, 60, undefined, needsOf([fleet!]));
    const f = cluster([{ name: 'local', yml: 'node.name: local\n' }]);
    f.hosts = [facts];
    const res = judgeCheck(c, f, 1, { now: new Date() });
    if (kernel < 262144) {
      t.equal(res.status, 'fail', `${shell.name}: fails`);
      t.match(
        res.findings.map((x) => x.message).join('\n'),
        `${kernel}, below 262144`,
        `${shell.name}: says the kernel's number`,
      );
    } else t.equal(res.status, 'pass', `${shell.name}: passes`);
  }
});

t.test('one head for every small file: eleven sysctls cost what one costs', async (t) => {
  const bin = join(root, 'bin');
  const log = join(root, 'ran');
  mkdirSync(bin);
  // the greps of the node's processes (/proc/N/cmdline) are as many as this machine's processes that look like an
  // engine, which the other test files running beside this one start and stop: they are not counted
  for (const tool of ['head', 'grep', 'stat', 'getconf', 'realpath']) {
    const note = `case "$*" in */proc/[0-9]*/cmdline*) ;; *) echo ${tool} >> '${log}';; esac`;
    writeFileSync(join(bin, tool), `#!/bin/sh\n${note}\nexec /usr/bin/${tool} "$@"\n`, { mode: 0o755 });
  }
  const one: Pack = {
    ...pack,
    checks: pack.checks.filter((c) => c.read.kind !== 'sysctl' || c.read.name === SYSCTLS[0]),
  };
  for (const shell of SHELLS) {
    const runs: string[] = [];
    for (const p of [one, pack]) {
      writeFileSync(log, '');
      const tr = shellTransport(shell);
      const facts = await readHost(
        { ...tr, exec: (c, o) => tr.exec(`PATH='${bin}'; ${c}`, o) },
        cfg,
        60,
        undefined,
        needsOf([p]),
      );
      t.equal(facts.error, undefined, `${shell.name}: the read finished`);
      runs.push(readFileSync(log, 'utf8').split('\n').filter(Boolean).sort().join(' '));
    }
    t.equal(runs[1], runs[0], `${shell.name}: the same programs (${runs[0]})`);
  }
});
