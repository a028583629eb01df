/**
 * A batch of SFTP stats over real sshd leaves in one socket write, not one write per SSH packet: the transport corks
 * the TCP socket it opened while the batch is queued (counted on every socket to that sshd's port). The answers are
 * what this process's own lstat and stat say of the same files.
 */
import t from 'tap';
import { Socket } from 'node:net';
import { lstat, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTransport } from '../../../src/transport/connect.ts';
import { startSshdFleet } from '../../helpers/sshd.ts';

const fleet = await startSshdFleet(t, 1);
const cfg = fleet.config(0);
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

t.test('a batch of stat requests goes out in one socket write; the answers are the files', async (t) => {
  const files = Array.from({ length: 30 }, (_, i) => join(dir, `f${i}`));
  await Promise.all(files.map((f, i) => writeFile(f, 'x'.repeat(i))));
  await symlink(files[3]!, join(dir, 'link'));
  const paths = [...files.slice(0, 29), join(dir, 'link'), join(dir, 'absent')];
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
      [l.mode, l.size, l.mtime, s.mode, s.size, s.mtime],
      [ml.mode, ml.size, Math.floor(ml.mtimeMs / 1000), ms.mode, ms.size, Math.floor(ms.mtimeMs / 1000)],
      p,
    );
  }

  // the connection is usable after the batch: a command and another batch
  t.same(await tr.exec('echo ok'), { code: 0, stdout: 'ok\n', stderr: '' });
  t.equal((await tr.statPaths!(paths, 30)).length, paths.length);
});
