/** writeFileAtomic over real sshd, where production configs bite: symlinks, read-only dirs, owners, odd bytes, odd paths. */
import t from 'tap';
import {
  chmod,
  chown,
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { execa } from 'execa';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTransport } from '../../../src/transport/connect.ts';
import { type Transport } from '../../../src/transport/types.ts';
import { startSshdFleet } from '../../helpers/sshd.ts';

const base = mkdtempSync(join(tmpdir(), 'smdoctor-wsafety-'));
t.teardown(() => rm(base, { recursive: true, force: true }));
const fleet = await startSshdFleet(t, 1, { dir: base });
const tr: Transport = await connectTransport(fleet.config(0), { timeout: 10, connectTimeout: 60, env: {} });
t.teardown(() => tr.close());

async function dirOf(name: string): Promise<string> {
  const d = join(base, 'files', name);
  await mkdir(d, { recursive: true });
  return d;
}

t.test("through a symlink: the target changes, the link stays, the backup is the target's old content", async (t) => {
  const d = await dirOf('link');
  await mkdir(join(d, 'real'));
  const target = join(d, 'real', 'opensearch.yml');
  await writeFile(target, 'node.name: m1\n');
  await chmod(target, 0o640);
  await chown(target, 0, 4321);
  const cases = [
    { name: 'absolute', link: join(d, 'abs.yml'), to: target },
    { name: 'relative', link: join(d, 'rel.yml'), to: 'real/opensearch.yml' },
    { name: 'link to a link', link: join(d, 'chain.yml'), to: 'abs.yml' },
  ];
  for (const c of cases) await symlink(c.to, c.link);
  for (const [i, c] of cases.entries()) {
    const before = await readFile(target, 'utf8');
    const content = `node.name: m1\n# edit ${i}\n`;
    t.same(
      await tr.writeFileAtomic(c.link, content),
      { backup: before },
      `${c.name}: backup is the target's old content`,
    );
    t.equal(await readFile(target, 'utf8'), content, `${c.name}: target updated`);
    t.ok((await lstat(c.link)).isSymbolicLink(), `${c.name}: still a link`);
    t.equal(await readlink(c.link), c.to, `${c.name}: pointing where it did`);
    t.match(await stat(target), { uid: 0, gid: 4321 }, `${c.name}: owner kept`);
    t.equal((await stat(target)).mode & 0o777, 0o640, `${c.name}: mode kept`);
  }
  t.same(await readdir(join(d, 'real')), ['opensearch.yml'], 'no temp file next to the target');
  t.same((await readdir(d)).sort(), ['abs.yml', 'chain.yml', 'real', 'rel.yml'], 'no temp file next to the links');
});

t.test('0640 with a specific group keeps both; bytes survive exactly', async (t) => {
  const d = await dirOf('bytes');
  const f = join(d, 'opensearch.yml');
  await writeFile(f, 'x: 1\n');
  await chmod(f, 0o640);
  await chown(f, 1000, 4242);
  const contents = [
    'no trailing newline: ü',
    'non-ASCII: 日本語 — ćšž 🚀\n',
    'windows: line\r\nends\r\n',
    'N\nlooks like the marker\n',
    'E\n',
    'quotes \' " $HOME `id` $(id) \\n\n',
    '',
  ];
  for (const c of contents) {
    await tr.writeFileAtomic(f, c);
    t.same(await readFile(f), Buffer.from(c, 'utf8'), `byte for byte: ${JSON.stringify(c)}`);
    t.equal(await tr.readFile(f), c, `reads back: ${JSON.stringify(c)}`);
    t.match(await stat(f), { uid: 1000, gid: 4242 });
    t.equal((await stat(f)).mode & 0o777, 0o640);
  }
  t.same(await readdir(d), ['opensearch.yml'], 'no temp file left');
});

t.test('a path the shell would read is one word, and nothing else is touched', async (t) => {
  const d = await dirOf('odd path');
  const f = join(d, "it's $(touch pwned) `touch pwned2`; x.yml");
  await writeFile(f, 'old\n');
  t.same(await tr.writeFileAtomic(f, 'new\n'), { backup: 'old\n' });
  t.equal(await tr.readFile(f), 'new\n');
  t.same(await readdir(d), ["it's $(touch pwned) `touch pwned2`; x.yml"], 'no command ran, no temp file left');
});

t.test('target directory not writable: fails, original untouched, no temp file', async (t) => {
  const d = await dirOf('readonly');
  const f = join(d, 'opensearch.yml');
  await writeFile(f, 'keep: me\n');
  // root ignores modes: an immutable directory is one even root cannot add a file to
  const immutable = await execa('chattr', ['+i', d], { reject: false });
  if (immutable.exitCode !== 0) return void t.pass(`skipped: chattr +i refused here: ${immutable.stderr}`);
  t.teardown(() => execa('chattr', ['-i', d], { reject: false }));
  const before = await stat(f);
  await t.rejects(tr.writeFileAtomic(f, 'changed: yes\n'), {
    code: 'REMOTE',
    message: /cannot write .*opensearch\.yml \(left unchanged\)/,
  });
  t.equal(await readFile(f, 'utf8'), 'keep: me\n', 'original untouched');
  t.match(await stat(f), { ino: before.ino, mtimeMs: before.mtimeMs }, 'not even rewritten in place');
  t.same(await readdir(d), ['opensearch.yml'], 'no temp file left');
});
