import t from 'tap';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { backupStore, expandHome, utcStamp } from '../../../src/base/backup.ts';

t.test('expandHome', async (t) => {
  const env = { HOME: '/home/me' };
  t.equal(expandHome('~', env, '/cwd'), '/home/me');
  t.equal(expandHome('~/.smdoctor/backups', env, '/cwd'), '/home/me/.smdoctor/backups');
  t.equal(expandHome('bk', env, '/cwd'), '/cwd/bk');
  t.equal(expandHome('/abs', env, '/cwd'), '/abs');
});

t.test('utcStamp', async (t) => {
  t.equal(utcStamp(new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 678))), '20240102T030405.678Z');
});

t.test('backups: <dir>/<stamp>/<host>/<absolute path>, owner-only, first copy kept', async (t) => {
  const root = join(t.testdir({}), 'bk');
  const store = backupStore(root, new Date(Date.UTC(2024, 0, 2, 3, 4, 5)));
  const p = await store.save('m1', '/app/opensearch/config/opensearch.yml', 'secret: x\n');
  t.equal(p, join(root, '20240102T030405.000Z', 'm1', 'app/opensearch/config/opensearch.yml'));
  t.equal(await readFile(p, 'utf8'), 'secret: x\n');
  t.equal((await stat(p)).mode & 0o777, 0o600, 'file 0600');
  for (const d of [root, store.dir, join(store.dir, 'm1'), join(store.dir, 'm1', 'app/opensearch/config')]) {
    t.equal((await stat(d)).mode & 0o777, 0o700, `${d} 0700`);
  }
  const again = await store.save('m1', '/app/opensearch/config/opensearch.yml', 'second\n');
  t.not(again, p);
  t.equal(await readFile(p, 'utf8'), 'secret: x\n', 'the original copy is kept');
  const odd = await store.save('../x', '/a/../../etc/passwd', 'y');
  t.ok(odd.startsWith(`${store.dir}/`), 'stays under the run directory');
});
