/**
 * serve's steady stats over one SFTP session: a host's batch is one write, every path is lstat'ed and only the last
 * cycle's symlinks are stat'ed too (counted on a fake SFTP server that speaks the wire, written here by hand from
 * draft-ietf-secsh-filexfer-02), replies however split or ordered, and what a broken or hostile server can send.
 * What `sameStamp` tells apart is kept: a link's target edited, a path turned into a link or back.
 */
import t from 'tap';
import { Duplex } from 'node:stream';
import { SftpSession, SftpUnavailable, isSymlink } from '../../../src/transport/sftp-stat.ts';
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

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const msg = (type: number, ...parts: Buffer[]) => {
  const body = Buffer.concat([Buffer.from([type]), ...parts]);
  return Buffer.concat([u32(body.length), body]);
};
// ATTRS with size (u64), uid/gid, permissions, atime/mtime: flags 0xf
const attrs = (id: number, mode: number, mtime: number) =>
  msg(
    105,
    u32(id),
    u32(0xf),
    Buffer.from([0, 0, 0, 0, 0, 0, 0, 10]),
    u32(0),
    u32(0),
    u32(mode),
    u32(mtime),
    u32(mtime),
  );
const status = (id: number, code: number) => msg(101, u32(id), u32(code), u32(0), u32(0));

/** The server's side: requests cut from what the client wrote, answered from `fs`; every write counted. */
function fakeServer(fs: Map<string, Node>, o: { version?: number; reply?: (out: Buffer[]) => Buffer[] } = {}) {
  const calls = { lstat: 0, stat: 0, writes: 0 };
  const answer = (id: number, p: string, follow: boolean, hops = 0): Buffer => {
    const n = fs.get(p);
    if (!n || hops > 8) return status(id, 2);
    if ('file' in n) return attrs(id, 0o100644, n.file);
    if (!follow) return attrs(id, 0o120777, OLD);
    return answer(id, n.link, true, hops + 1);
  };
  const channel: Duplex = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, done) {
      calls.writes += 1;
      const out: Buffer[] = [];
      for (let at = 0; at < chunk.length;) {
        const len = chunk.readUInt32BE(at);
        const type = chunk.readUInt8(at + 4);
        if (type === 1) out.push(msg(2, u32(o.version ?? 3)));
        else {
          const id = chunk.readUInt32BE(at + 5);
          const p = chunk.toString('utf8', at + 13, at + 13 + chunk.readUInt32BE(at + 9));
          calls[type === 7 ? 'lstat' : 'stat'] += 1;
          out.push(answer(id, p, type === 17));
        }
        at += 4 + len;
      }
      setImmediate(() => {
        for (const b of o.reply ? o.reply(out) : out) channel.push(b);
      });
      done();
    },
  });
  return { channel, calls };
}

t.test(
  'one write a batch: lstat of every path, stat only of those followed; without a set, both of each',
  async (t) => {
    const fs = new Map<string, Node>([
      ['/a', { file: OLD }],
      ['/b', { link: '/a' }],
    ]);
    const { channel, calls } = fakeServer(fs);
    const sftp = await SftpSession.open(channel);
    const both = await sftp.stat(['/a', '/b', '/gone']);
    t.same(calls, { lstat: 3, stat: 3, writes: 2 }, 'no previous answer: both of each, in one write after INIT');
    t.ok(isSymlink(both[1]![0]) && !isSymlink(both[1]![1]), '/b is a link to a file');
    t.same(
      both.map(([l]) => l.state),
      ['ok', 'ok', 'absent'],
    );
    t.same(both[0]![0], { path: '/a', state: 'ok', size: 10, uid: 0, gid: 0, mode: 0o100644, mtime: OLD });
    const half = await sftp.stat(['/a', '/b', '/gone'], new Set(['/b']));
    t.same(calls, { lstat: 6, stat: 4, writes: 3 }, 'then one stat, for the link, in one write');
    t.same(half[1], both[1], "the link's answers are as before");
    t.equal(half[0]![1], half[0]![0], 'a path not followed: its lstat stands for its stat');
    t.same(half[2]![1].state, 'absent');
  },
);

t.test('replies cut anywhere and in any order are matched by id', async (t) => {
  const fs = new Map<string, Node>([
    ['/a', { file: OLD }],
    ['/é b', { file: OLD + 1 }],
  ]);
  const bytes = (out: Buffer[]) => [...Buffer.concat(out.reverse())].map((x) => Buffer.from([x]));
  const sftp = await SftpSession.open(fakeServer(fs, { reply: (out) => (out.length > 1 ? bytes(out) : out) }).channel);
  const got = await sftp.stat(['/a', '/é b', '/c']);
  t.same(
    got.map(([l, s]) => [l.path, l.state, s.mtime]),
    [
      ['/a', 'ok', OLD],
      ['/é b', 'ok', OLD + 1],
      ['/c', 'absent', undefined],
    ],
  );
});

t.test('what a broken or hostile server can send', async (t) => {
  const fs = new Map<string, Node>([['/a', { file: OLD }]]);
  const old = await SftpSession.open(fakeServer(fs, { version: 2 }).channel).catch((e: unknown) => e);
  t.ok(old instanceof SftpUnavailable, 'a version below 3: no SFTP on this host');
  // a server that never answers INIT: given up on after the timeout, its channel closed
  const mute = new Duplex({ read() {}, write: (_c, _e, done) => done() });
  const silent = await SftpSession.open(mute, 50).catch((e: unknown) => e);
  t.ok(silent instanceof SftpUnavailable && mute.destroyed, `no answer to INIT: ${String(silent)}`);

  // a length prefix of 2 GiB: never buffered, the session ends and its stats fail (the host is read in full)
  const huge = fakeServer(fs, { reply: (out) => (out.length > 1 ? [u32(0x7fffffff), ...out] : out) });
  const s1 = await SftpSession.open(huge.channel);
  t.same(
    (await s1.stat(['/a', '/b'])).map(([l, s]) => [l.state, s.state]),
    [
      ['failed', 'failed'],
      ['failed', 'failed'],
    ],
  );
  t.ok(s1.isClosed && huge.channel.destroyed, 'the session and its channel are closed');
  t.same(
    (await s1.stat(['/a'])).map(([l]) => l.state),
    ['failed'],
    'a closed session fails at once, writing nothing',
  );

  // ATTRS cut short inside its own length, unknown ids, permission denied, an unknown type
  const odd = fakeServer(fs, {
    reply: (out) =>
      out.length > 1
        ? [msg(200, u32(1)), attrs(999, 0o100644, OLD), status(3, 3), status(2, 3), msg(105, u32(4), u32(0xf), u32(0))]
        : out,
  });
  const s2 = await SftpSession.open(odd.channel);
  t.same(
    (await s2.stat(['/x', '/y'])).map(([l, s]) => [l.state, s.state]),
    [
      ['failed', 'denied'],
      ['denied', 'failed'],
    ],
    "ids 2 and 3 denied, the rest ignored; id 4's ATTRS cut short ends the session, so ids 1 and 4 fail",
  );
  t.ok(s2.isClosed);
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
    const { channel, calls } = fakeServer(fs);
    const sftp = await SftpSession.open(channel);
    const host: Transport = {
      host: 'n1',
      exec: async () => ({ code: 0, stdout: '', stderr: '' }),
      readFile: async () => null,
      writeFileAtomic: async () => ({ backup: null }),
      close: async () => undefined,
      statPaths: (paths, _s, follow) => sftp.stat(paths, follow),
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
    t.same(
      { lstat: calls.lstat, stat: calls.stat },
      { lstat: n, stat: n },
      'after a full read: lstat and stat of each of the watched paths',
    );
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

t.test('extended attributes are skipped; an attribute the server leaves out stays out', async (t) => {
  const str = (x: string) => Buffer.concat([u32(Buffer.byteLength(x)), Buffer.from(x)]);
  // flags: PERMISSIONS and EXTENDED only, two extended pairs after the mode
  const ext = (id: number) =>
    msg(105, u32(id), u32(0x80000004), u32(0o100600), u32(2), str('a@x'), str('1'), str('b@x'), str(''));
  const fs = new Map<string, Node>([['/a', { file: OLD }]]);
  const s = await SftpSession.open(
    fakeServer(fs, { reply: (out) => (out.length > 1 ? [ext(1), ext(2)] : out) }).channel,
  );
  t.same(await s.stat(['/a']), [
    [
      { path: '/a', state: 'ok', mode: 0o100600 },
      { path: '/a', state: 'ok', mode: 0o100600 },
    ],
  ]);
  t.notOk(s.isClosed);
});
