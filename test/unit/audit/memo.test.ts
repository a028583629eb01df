/** serve's memory between cycles: a host is kept unread only while every stamp it was read with is unchanged. */
import t from 'tap';
import { keptFacts, newAuditMemo, remember } from '../../../src/audit/memo.ts';
import { watchedPaths } from '../../../src/audit/watch.ts';
import { emptyHostFacts } from '../../../src/audit/gather-host.ts';
import { emptyApiFacts } from '../../../src/audit/gather-api.ts';
import { SftpUnavailable } from '../../../src/transport/sftp-stat.ts';
import type { HostFacts } from '../../../src/model/index.ts';
import type { PathStat, Transport } from '../../../src/transport/types.ts';
import { hostConfig } from '../../helpers/checks/facts.ts';
import { laidOutFacts } from '../../helpers/audit/laid-out.ts';

const NOW = Date.UTC(2026, 11, 7, 12) as number;
const OLD = NOW / 1000 - 3600;
const cfg = hostConfig('n1', '10.0.0.1');

function facts(): HostFacts {
  const f = laidOutFacts(cfg);
  f.layout!.engineProcess = { pid: '4242', how: 'the only one running' };
  f.plugins = [{ folder: 'sm-job-scheduler', name: 'sm-job-scheduler' }];
  return f;
}

/** A host whose files are `files` (path → mtime; missing: absent), counting its stat round trips and commands. */
function fakeHost(files: Map<string, number>, o: { sftp?: boolean; deny?: string } = {}) {
  const calls = { stats: 0, exec: 0 };
  const one = (path: string): PathStat =>
    path === o.deny
      ? { path, state: 'denied' }
      : files.has(path)
        ? { path, state: 'ok', mode: 0o100644, uid: 0, gid: 0, size: 10, mtime: files.get(path)! }
        : { path, state: 'absent' };
  const t: Transport = {
    host: 'n1',
    exec: async () => {
      calls.exec += 1;
      return { code: 0, stdout: '', stderr: '' };
    },
    readFile: async () => null,
    writeFileAtomic: async () => ({ backup: null }),
    close: async () => undefined,
    statPaths: async (paths) => {
      calls.stats += 1;
      if (o.sftp === false) throw new SftpUnavailable('SFTP is not available on 10.0.0.1: Unable to start subsystem');
      return paths.map((p) => [one(p), one(p)] as [PathStat, PathStat]);
    },
  };
  return { t, calls };
}

const api = emptyApiFacts(true);

t.test('the watched paths: configs, keystore, plugins, layout sources, the process', async (t) => {
  const p = watchedPaths(cfg, facts())!;
  for (const want of [
    '/etc/opensearch/opensearch.yml',
    '/etc/opensearch/opensearch.keystore',
    '/app/opensearch/plugins',
    '/app/opensearch/plugins/sm-job-scheduler/plugin-descriptor.properties',
    '/etc/default/opensearch',
    '/var/run/opensearch/opensearch.pid',
    '/proc/4242',
  ])
    t.ok(p.includes(want), want);
  t.equal(watchedPaths(cfg, emptyHostFacts(cfg, true)), undefined, 'no layout: nothing to watch');
});

t.test('unchanged: the same facts, one stat round trip, no command', async (t) => {
  const files = new Map([
    ['/etc/opensearch/opensearch.yml', OLD],
    ['/proc/4242', NOW / 1000],
  ]);
  const { t: host, calls } = fakeHost(files);
  const memo = newAuditMemo({ now: () => NOW });
  const f = facts();
  await remember(memo, cfg, host, f, api, 5);
  memo.full = false;
  t.equal(await keptFacts(memo, cfg, host, api, 5), f, 'the very facts of the last read');
  t.same(calls, { stats: 2, exec: 0 });
  t.equal(memo.kept.hosts, 1);

  memo.full = true;
  t.equal(await keptFacts(memo, cfg, host, api, 5), undefined, 'a full cycle reads');
  t.equal(calls.stats, 2, 'without asking');
  memo.full = false;
  t.equal(
    await keptFacts(memo, cfg, host, Promise.resolve({ ...api, nodes: [{ name: 'x' }] }), 5),
    undefined,
    'the node list changed',
  );
  t.equal(await keptFacts(memo, hostConfig('n1', '10.0.0.2'), host, api, 5), undefined, 'the host settings changed');
});

t.test('a changed, appeared, vanished or too recent stamp: read again', async (t) => {
  const cases: Array<[string, (m: Map<string, number>) => void]> = [
    ['edited', (m) => m.set('/etc/opensearch/opensearch.yml', OLD + 1)],
    ['a plugin folder appeared', (m) => m.set('/app/opensearch/plugins', OLD)],
    ['the process ended', (m) => m.delete('/proc/4242')],
    ['modified within 2 s of now', (m) => m.set('/etc/opensearch/opensearch.yml', NOW / 1000 - 1)],
  ];
  for (const [what, change] of cases) {
    const files = new Map([
      ['/etc/opensearch/opensearch.yml', OLD],
      ['/proc/4242', OLD],
    ]);
    const { t: host } = fakeHost(files);
    const memo = newAuditMemo({ now: () => NOW });
    await remember(memo, cfg, host, facts(), api, 5);
    memo.full = false;
    change(files);
    t.equal(await keptFacts(memo, cfg, host, api, 5), undefined, what);
  }
  // a process's /proc entry counts by being there: its times are the kernel's
  const files = new Map([['/proc/4242', OLD]]);
  const { t: host } = fakeHost(files);
  const memo = newAuditMemo({ now: () => NOW });
  await remember(memo, cfg, host, facts(), api, 5);
  memo.full = false;
  files.set('/proc/4242', NOW / 1000);
  t.ok(await keptFacts(memo, cfg, host, api, 5), "a /proc entry's new time is not a change");
});

t.test('no SFTP, or SFTP may not stat: read every cycle, said once per host', async (t) => {
  for (const o of [{ sftp: false }, { deny: '/etc/opensearch/opensearch.yml' }]) {
    const notes: string[] = [];
    const memo = newAuditMemo({ now: () => NOW, note: (h, m) => notes.push(`${h}: ${m}`) });
    const { t: host } = fakeHost(new Map(), o);
    for (let i = 0; i < 3; i++) {
      await remember(memo, cfg, host, facts(), api, 5);
      memo.full = false;
      t.equal(await keptFacts(memo, cfg, host, api, 5), undefined);
    }
    t.equal(notes.length, 1, notes[0]!);
    t.match(notes[0], /every cycle reads the host with the batched command/);
  }
  // a read with errors is not kept
  const memo = newAuditMemo({ now: () => NOW });
  const { t: host } = fakeHost(new Map());
  await remember(memo, cfg, host, { ...facts(), error: 'reading files did not finish' }, api, 5);
  t.equal(memo.hosts.size, 0);
});
