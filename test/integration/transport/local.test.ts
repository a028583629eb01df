import t from 'tap';
import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { connectTransport } from '../../../src/transport/connect.ts';
import { LocalTransport } from '../../../src/transport/local.ts';
import type { HostConfig } from '../../../src/inventory/types.ts';
import { hostConfigOf } from '../../helpers/host-config.ts';

const cfg = (over: Partial<HostConfig> = {}): HostConfig =>
  hostConfigOf('here', { connection: 'local', user: userInfo().username, ...over });

t.test('exec, stdin, exit codes', async (t) => {
  const tr = await connectTransport(cfg(), { timeout: 10 });
  t.type(tr, LocalTransport);
  t.same(await tr.exec('printf out; printf err >&2; exit 5'), { code: 5, stdout: 'out', stderr: 'err' });
  t.same(await tr.exec('cat', { stdin: 'x\ny' }), { code: 0, stdout: 'x\ny', stderr: '' });
  await tr.close();
});

t.test('timeout kills the whole command and rejects with TIMEOUT', async (t) => {
  const tr = new LocalTransport(cfg(), { timeout: 10 });
  await t.rejects(tr.exec('sleep 41.5 | cat', { timeout: 0.3 }), { code: 'TIMEOUT', host: 'here' });
  const left = await execa('pgrep', ['-f', 'sleep 41.5'], { reject: false });
  t.equal(left.stdout, '', 'no process left');
  t.match(await tr.exec('echo ok'), { code: 0, stdout: 'ok\n' });
});

t.test('sudo rules: missing sudo is a clear error', async (t) => {
  const tr = new LocalTransport(cfg({ become: true }), { timeout: 10 });
  await t.rejects(tr.exec('id', { privileged: true }), {
    code: 'REMOTE',
    message: /ansible_become is set but sudo is not installed/,
  });
  t.match(await tr.exec('id -un', { asUser: userInfo().username }), { code: 0, stdout: `${userInfo().username}\n` });
});

t.test('readFile and writeFileAtomic', async (t) => {
  const dir = t.testdir({ 'a.yml': 'old\n' });
  const tr = new LocalTransport(cfg(), { timeout: 10 });
  const f = join(dir, 'a.yml');
  await chmod(f, 0o600);
  t.equal(await tr.readFile(join(dir, 'none')), null);
  t.same(await tr.writeFileAtomic(f, 'new'), { backup: 'old\n' });
  t.equal(await readFile(f, 'utf8'), 'new');
  t.equal((await stat(f)).mode & 0o777, 0o600);
  t.same(await tr.writeFileAtomic(join(dir, 'b.yml'), 'b\n'), { backup: null });
  t.same((await readdir(dir)).sort(), ['a.yml', 'b.yml']);
  await writeFile(join(dir, 'c'), 'keep');
  await t.rejects(tr.writeFileAtomic(join(dir, 'c', 'x'), 'x'), { code: 'REMOTE' });
  t.equal(await readFile(join(dir, 'c'), 'utf8'), 'keep');
});
