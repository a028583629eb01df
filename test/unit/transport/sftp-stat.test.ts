/**
 * serve's steady stats: every path is lstat'ed, only the last cycle's symlinks are stat'ed too (counted on a fake SFTP
 * session), and what `stampOf` tells apart is kept: a link's target edited, a path turned into a link or back.
 */
import t from 'tap';
import { isSymlink, statMany } from '../../../src/transport/sftp-stat.ts';
import { keptFacts, newAuditMemo, remember } from '../../../src/audit/memo.ts';
import { watchedPaths } from '../../../src/audit/watch.ts';
import { emptyApiFacts } from '../../../src/audit/gather-api.ts';
import type { HostFacts } from '../../../src/model/index.ts';
import type { Transport } from '../../../src/transport/types.ts';
import { hostConfig } from '../../helpers/checks/facts.ts';
import { laidOutFacts } from '../../helpers/audit/laid-out.ts';

const NOW = Date.UTC(2026, 11, 7, 12) as number;
const OLD = NOW / 1000 - 3600;

type Node = { file: number } | { link: string };
// ssh2's types, taken from statMany's signature: the unit tier loads no transport library
type SFTPWrapper = Parameters<typeof statMany>[0];
type Stats = Parameters<Parameters<SFTPWrapper['lstat']>[1]>[1];

/** A node's files (path → a file's mtime, or a link's target), served as an SFTP session that counts its requests. */
function fakeSftp(fs: Map<string, Node>) {
  const calls = { lstat: 0, stat: 0 };
  const attrs = (mode: number, mtime: number) => ({ mode, uid: 0, gid: 0, size: 10, mtime }) as unknown as Stats;
  const answer = (p: string, follow: boolean, cb: (err: Error | undefined, s?: Stats) => void, hops = 0): void => {
    const n = fs.get(p);
    if (!n || hops > 8) return cb(Object.assign(new Error('No such file'), { code: 2 }));
    if ('file' in n) return cb(undefined, attrs(0o100644, n.file));
    if (!follow) return cb(undefined, attrs(0o120777, OLD));
    answer(n.link, true, cb, hops + 1);
  };
  const sftp = {
    lstat: (p: string, cb: (err: Error | undefined, s?: Stats) => void) => {
      calls.lstat += 1;
      setImmediate(() => answer(p, false, cb));
    },
    stat: (p: string, cb: (err: Error | undefined, s?: Stats) => void) => {
      calls.stat += 1;
      setImmediate(() => answer(p, true, cb));
    },
  } as unknown as SFTPWrapper;
  return { sftp, calls };
}

t.test('statMany: lstat of every path, stat only of those followed; without a set, both of each', async (t) => {
  const fs = new Map<string, Node>([
    ['/a', { file: OLD }],
    ['/b', { link: '/a' }],
  ]);
  const { sftp, calls } = fakeSftp(fs);
  const both = await statMany(sftp, ['/a', '/b', '/gone']);
  t.same(calls, { lstat: 3, stat: 3 }, 'no previous answer: both of each');
  t.ok(isSymlink(both[1]![0]) && !isSymlink(both[1]![1]), '/b is a link to a file');
  t.same(
    both.map(([l]) => l.state),
    ['ok', 'ok', 'absent'],
  );
  const half = await statMany(sftp, ['/a', '/b', '/gone'], new Set(['/b']));
  t.same(calls, { lstat: 6, stat: 4 }, 'then one stat, for the link');
  t.same(half[1], both[1], "the link's answers are as before");
  t.equal(half[0]![1], half[0]![0], 'a path not followed: its lstat stands for its stat');
  t.same(half[2]![1].state, 'absent');
});

const cfg = hostConfig('n1', '10.0.0.1');
const api = emptyApiFacts(true);
const facts = (): HostFacts => laidOutFacts(cfg);

t.test(
  'steady cycles ask half; a link whose target is edited, or a path that becomes or stops being a link, is read again',
  async (t) => {
    const YML = '/etc/opensearch/opensearch.yml';
    const fs = new Map<string, Node>([
      ['/etc/opensearch', { file: OLD }],
      ['/srv/conf/opensearch.yml', { file: OLD }],
      [YML, { link: '/srv/conf/opensearch.yml' }],
      ['/app/opensearch', { file: OLD }],
    ]);
    const { sftp, calls } = fakeSftp(fs);
    const host: Transport = {
      host: 'n1',
      exec: async () => ({ code: 0, stdout: '', stderr: '' }),
      readFile: async () => null,
      writeFileAtomic: async () => ({ backup: null }),
      close: async () => undefined,
      statPaths: (paths, _s, follow) => statMany(sftp, paths, follow),
    };
    const n = watchedPaths(cfg, facts())!.length;
    const memo = newAuditMemo({ now: () => NOW });
    const read = async () => {
      memo.full = true;
      await remember(memo, cfg, host, facts(), api, 5);
      memo.full = false;
    };
    const steady = async () => {
      const before = { ...calls };
      const kept = await keptFacts(memo, cfg, host, api, 5);
      return { kept: kept !== undefined, lstat: calls.lstat - before.lstat, stat: calls.stat - before.stat };
    };

    await read();
    t.same(calls, { lstat: n, stat: n }, 'after a full read: lstat and stat of each of the watched paths');
    t.same(await steady(), { kept: true, lstat: n, stat: 1 }, `a steady cycle: ${n} lstats and 1 stat (the link)`);
    t.same(await steady(), { kept: true, lstat: n, stat: 1 }, 'and again');

    fs.set('/srv/conf/opensearch.yml', { file: OLD + 5 });
    t.same(await steady(), { kept: false, lstat: n, stat: 1 }, "the link's target edited, the link not: read again");
    await read();
    t.equal((await steady()).kept, true, 'then kept');

    fs.set(YML, { file: OLD });
    t.equal((await steady()).kept, false, 'the link replaced by a file of the same times: read again');
    await read();
    t.same(await steady(), { kept: true, lstat: n, stat: 0 }, 'no link left: no stat at all');

    fs.set(YML, { link: '/srv/conf/opensearch.yml' });
    t.same(await steady(), { kept: false, lstat: n, stat: 0 }, 'the file turned into a link: its lstat says so');
    await read();
    t.same(await steady(), { kept: true, lstat: n, stat: 1 }, 'and the link is followed from then on');

    fs.set('/srv/conf/opensearch.yml', { link: '/srv/conf/elsewhere.yml' });
    t.equal((await steady()).kept, false, 'the target replaced by a dangling link: read again');
  },
);
