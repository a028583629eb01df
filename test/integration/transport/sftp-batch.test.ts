/**
 * A batch of SFTP stats over real sshd leaves in one socket write: the requests are one SSH packet, not one a request
 * (counted on every socket to that sshd's port). The answers are what this process's own lstat and stat say of the
 * same files, from sshd's internal-sftp and from OpenSSH's sftp-server program; a node whose sshd offers no SFTP
 * says so, and its commands still run.
 */
import t from 'tap';
import { Socket } from 'node:net';
import { lstat, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTransport } from '../../../src/transport/connect.ts';
import { SftpUnavailable } from '../../../src/transport/sftp-stat.ts';
import { startSshdFleet } from '../../helpers/sshd.ts';

const SFTP_SERVER = '/usr/lib/openssh/sftp-server';
const internal = (await startSshdFleet(t, 1)).config(0);
const program = (await startSshdFleet(t, 1, { sftp: SFTP_SERVER })).config(0);
const none = (await startSshdFleet(t, 1, { sftp: null })).config(0);
// an SFTP server that never answers INIT
const mute = (await startSshdFleet(t, 1, { sftp: '/bin/sleep 30' })).config(0);
const dir = await mkdtemp(join(tmpdir(), 'smdoctor-sftp-batch-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));

/** Calls of the socket's _write and _writev (each one write or writev of the kernel) on sockets to the sshd. */
function countWrites(port: number) {
  const proto = Socket.prototype as unknown as Record<'_write' | '_writev', (...a: unknown[]) => unknown>;
  const saved = { _write: proto._write, _writev: proto._writev };
  const count = { writes: 0 };
  for (const k of ['_write', '_writev'] as const)
    proto[k] = function (this: Socket, ...a: unknown[]) {
      if (this.remotePort === port) count.writes += 1;
      return saved[k].apply(this, a);
    };
  return { count, restore: () => Object.assign(proto, saved) };
}

const files = Array.from({ length: 29 }, (_, i) => join(dir, `f${i}`)).concat(join(dir, 'é ü'));
await Promise.all(files.map((f, i) => writeFile(f, 'x'.repeat(i))));
await symlink(files[3]!, join(dir, 'link'));
// and this machine's own: a config that is a symlink on Debian, a file of /etc, a package folder, a process's folder
const host = ['/etc/os-release', '/etc/passwd', '/usr/share', '/proc/1'];
const paths = [...files, join(dir, 'link'), ...host, join(dir, 'absent')];

for (const [server, cfg] of [
  ['internal-sftp', internal],
  [SFTP_SERVER, program],
] as const)
  t.test(`${server}: a batch of stat requests goes out in one socket write; the answers are the files`, async (t) => {
    const tr = await connectTransport(cfg, { timeout: 30, connectTimeout: 60 });
    t.teardown(() => tr.close());
    await tr.statPaths!([dir], 30); // the SFTP session is opened once, before the counted batch

    const { count, restore } = countWrites(cfg.port);
    let got;
    try {
      got = await tr.statPaths!(paths, 30);
    } finally {
      restore();
    }
    const requests = 2 * paths.length;
    t.ok(count.writes >= 1 && count.writes <= 3, `${count.writes} socket writes for ${requests} SFTP requests`);

    for (const [i, p] of paths.entries()) {
      const [l, s] = got[i]!;
      if (p.endsWith('absent')) {
        t.same([l.state, s.state], ['absent', 'absent'], p);
        continue;
      }
      const [ml, ms] = [await lstat(p), await stat(p)];
      t.same(
        [l.mode, l.uid, l.gid, l.size, l.mtime, s.mode, s.size, s.mtime],
        [
          ml.mode,
          ml.uid,
          ml.gid,
          ml.size,
          Math.floor(ml.mtimeMs / 1000),
          ms.mode,
          ms.size,
          Math.floor(ms.mtimeMs / 1000),
        ],
        p,
      );
    }

    // the connection is usable after the batch: a command and another batch
    t.same(await tr.exec('echo ok'), { code: 0, stdout: 'ok\n', stderr: '' });
    t.equal((await tr.statPaths!(paths, 30)).length, paths.length);
  });

t.test('a node whose sshd offers no SFTP: the stats say so, every time, and commands still run', async (t) => {
  const tr = await connectTransport(none, { timeout: 30, connectTimeout: 60 });
  t.teardown(() => tr.close());
  for (const round of [1, 2]) {
    const err = await tr.statPaths!(paths, 30).catch((e: unknown) => e);
    t.ok(err instanceof SftpUnavailable, `round ${round}: ${String(err)}`);
    t.match(String(err), /SFTP is not available on /);
  }
  t.same(await tr.exec('echo ok'), { code: 0, stdout: 'ok\n', stderr: '' });
});

t.test('an SFTP server that never answers: given up on once for the connection, commands still run', async (t) => {
  const tr = await connectTransport(mute, { timeout: 30, connectTimeout: 60 });
  t.teardown(() => tr.close());
  const first = await tr.statPaths!(paths, 2).catch((e: unknown) => e);
  t.ok(first instanceof SftpUnavailable, String(first));
  const at = performance.now();
  const again = await tr.statPaths!(paths, 2).catch((e: unknown) => e);
  t.ok(again instanceof SftpUnavailable, 'the next stat says so too');
  t.ok(performance.now() - at < 1000, 'at once, not after another timeout');
  t.same(await tr.exec('echo ok'), { code: 0, stdout: 'ok\n', stderr: '' });
});
