/** The packs' host reads ride in the one batched command (run here in a real sh): values, symlinks out refused, one exec. */
import t from 'tap';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHost } from '../../../src/audit/gather-host.ts';
import { needsOf, readSource } from '../../../src/packs/index.ts';
import type { Pack, PackSource } from '../../../src/model/pack.ts';
import { plantHost } from '../../helpers/audit/fakes.ts';
import { fakeTransport } from '../../helpers/audit/local-sh.ts';
import { check } from '../../helpers/packs/facts.ts';

const root = mkdtempSync(join(tmpdir(), 'smdoctor-packs-'));
t.teardown(() => rmSync(root, { recursive: true, force: true }));

const sources: PackSource[] = [
  { kind: 'file', path: 'config/log4j2.properties', match: '^rootLogger\\.level\\s*=\\s*(\\w+)' },
  { kind: 'file', path: 'config/outside.txt', match: '(.*)' },
  { kind: 'file', path: 'config/missing.txt', match: '(.*)' },
  { kind: 'sysctl', name: 'vm.max_map_count' },
  { kind: 'memory' },
  { kind: 'engine_process', limit: 'max_locked_memory' },
  { kind: 'engine_process', limit: 'max_open_files' },
  { kind: 'jvm_option', option: '-Xmx' },
  { kind: 'certificate', setting: 'plugins.security.ssl.http.pemcert_filepath' },
];
const pack: Pack = {
  name: 'acme',
  origin: 'x',
  checks: sources.map((s) => check(s, [{ kind: 'present', value: true }])),
};

t.test('every host source from one command', async (t) => {
  const proc = join(root, 'proc');
  mkdirSync(join(proc, 'sys', 'vm'), { recursive: true });
  mkdirSync(join(proc, '4242'), { recursive: true });
  writeFileSync(join(proc, 'sys', 'vm', 'max_map_count'), '262144\n');
  writeFileSync(join(proc, 'meminfo'), 'MemTotal:       16318480 kB\nMemFree: 1 kB\n');
  writeFileSync(
    join(proc, '4242', 'limits'),
    'Limit                     Soft Limit           Hard Limit           Units\nMax open files            65535                65535                files\nMax locked memory         unlimited            unlimited            bytes\n',
  );
  writeFileSync(join(root, 'pid'), '4242\n');
  writeFileSync(join(root, 'secret.txt'), 'not to be read\n');
  const cfg = plantHost(
    root,
    'n1',
    { engineYml: 'plugins.security.ssl.http.pemcert_filepath: esnode.pem\n' },
    { procRoot: proc, enginePidFile: join(root, 'pid') },
  );
  const conf = join(cfg.searchHome, 'config');
  writeFileSync(join(conf, 'log4j2.properties'), 'status = error\nrootLogger.level = info\n');
  symlinkSync(join(root, 'secret.txt'), join(conf, 'outside.txt'));
  writeFileSync(join(conf, 'jvm.options'), '-Xms1g\n-Xmx1g\n17-:-Xss1m\n');
  mkdirSync(join(conf, 'jvm.options.d'));
  writeFileSync(join(conf, 'jvm.options.d', 'heap.options'), '-Xmx2g\n');
  mkdirSync(join(cfg.searchHome, 'jdk'));
  writeFileSync(join(cfg.searchHome, 'jdk', 'release'), 'JAVA_VERSION="21.0.4"\n');
  copyFileSync(new URL('../../fixtures/packs/esnode.pem', import.meta.url), join(conf, 'esnode.pem'));

  const tr = fakeTransport('n1', {});
  const facts = await readHost(tr, cfg, 30, undefined, needsOf([pack]));
  t.equal(tr.calls.length, 1, 'one command on the connection');
  t.equal(facts.error, undefined);
  const read = (s: PackSource) =>
    readSource(s, {
      host: facts,
      api: { reachable: true, nodes: [], nodeattrs: [], plugins: [], limitsShards: [] },
      now: new Date('2034-02-07T17:03:25Z'),
    });
  const got = sources.map(read);
  t.same(got[0], { ok: true, value: 'info' }, 'file: the first capture');
  t.match(got[1], { ok: false, error: /outside its folder/ }, 'a symlink out is not read');
  t.notMatch(JSON.stringify(facts), /not to be read/);
  t.same(
    got[2],
    { ok: true, value: undefined, absent: 'is absent (no such file)' },
    'a missing file is absent, and says so',
  );
  t.same(got[3], { ok: true, value: 262144 }, 'sysctl');
  t.same(got[4], { ok: true, value: 16318480 * 1024 }, 'memory');
  t.same(got[5], { ok: true, value: 'unlimited' }, 'max_locked_memory');
  t.same(got[6], { ok: true, value: 65535 }, 'max_open_files');
  t.same(got[7], { ok: true, value: 2 * 1024 ** 3 }, 'jvm_option: jvm.options.d wins');
  t.match(got[8], { ok: true, value: { demo: true, days_left: 10 } }, 'certificate');
});

t.test('no engine process, no proc: errors, not failures', async (t) => {
  const cfg = plantHost(
    root,
    'n2',
    { engineYml: 'a: 1\n' },
    { procRoot: join(root, 'noproc'), enginePidFile: join(root, 'nopid') },
  );
  const facts = await readHost(fakeTransport('n2', {}), cfg, 30, undefined, needsOf([pack]));
  const read = (s: PackSource) =>
    readSource(s, {
      host: facts,
      api: { reachable: true, nodes: [], nodeattrs: [], plugins: [], limitsShards: [] },
      now: new Date(),
    });
  t.match(read(sources[5]!), { ok: false, error: /no running engine process/ });
  t.match(read(sources[4]!), { ok: false });
  t.same(read(sources[3]!), { ok: true, value: undefined }, 'a sysctl the kernel lacks is absent');
  t.same(read(sources[7]!), { ok: true, value: undefined }, 'no jvm.options: the option is absent');
});
