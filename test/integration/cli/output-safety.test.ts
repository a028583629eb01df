import t from 'tap';
import { execFileSync, spawn } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { emit } from '../../../src/cli/context.ts';
import { writeOutput } from '../../../src/cli/output.ts';
import { captureContext, runCli } from '../../helpers/cli.ts';

const INV = 'all:\n  hosts:\n    m1: {ansible_host: 127.0.0.1, ansible_port: 1}\n';
const isRoot = process.getuid?.() === 0;

t.test(
  '-o to a device writes to it and keeps the device (never renamed over)',
  { skip: isRoot ? false : 'mknod needs root' },
  async (t) => {
    const dir = t.testdir({});
    const dev = join(dir, 'null');
    execFileSync('mknod', [dev, 'c', '1', '3']);
    await emit(captureContext({ cwd: dir }), '{"report":1}', dev);
    t.ok(lstatSync(dev).isCharacterDevice(), 'still a character device');
    t.same(readdirSync(dir), ['null'], 'no temp file left beside it');
  },
);

t.test('-o to a symlink writes through it to its target and keeps the link', async (t) => {
  const dir = t.testdir({ real: { 'r.json': 'old\n' } });
  const link = join(dir, 'link.json');
  symlinkSync(join(dir, 'real', 'r.json'), link);
  await emit(captureContext({ cwd: dir }), 'new', link);
  t.ok(lstatSync(link).isSymbolicLink(), 'the link is still a link');
  t.equal(readFileSync(join(dir, 'real', 'r.json'), 'utf8'), 'new\n', 'its target got the report');
});

t.test('-o to a FIFO writes into the pipe and keeps the FIFO', async (t) => {
  const dir = t.testdir({});
  const fifo = join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  const reader = spawn('cat', [fifo]);
  let got = '';
  reader.stdout.on('data', (d) => (got += d));
  const done = new Promise((r) => reader.on('close', r));
  await emit(captureContext({ cwd: dir }), 'through the pipe', fifo);
  const still = lstatSync(fifo).isFIFO();
  // replaced by a rename, the pipe never sees a writer: release the reader so the test ends
  if (!still) reader.kill();
  await done;
  t.ok(still, 'still a FIFO');
  t.equal(got, 'through the pipe\n');
});

t.test('-o to a plain file replaces it whole and keeps its mode', async (t) => {
  const dir = t.testdir({ 'r.json': 'old\n' });
  const f = join(dir, 'r.json');
  execFileSync('chmod', ['640', f]);
  await writeOutput(f, 'new\n');
  t.equal(readFileSync(f, 'utf8'), 'new\n');
  t.equal(statSync(f).mode & 0o777, 0o640);
  t.same(readdirSync(dir), ['r.json'], 'no temp file left');
});

t.test('a write that fails leaves no temp file, even for -o <a directory>', async (t) => {
  const dir = t.testdir({ out: {} });
  await t.rejects(writeOutput(join(dir, 'out'), 'x'));
  t.same(readdirSync(dir), ['out']);
  t.same(readdirSync(join(dir, 'out')), []);
});

t.test('a bad -o is refused (exit 2) before the inventory is read or any host is touched', async (t) => {
  const dir = t.testdir({ 'inv.yml': INV, adir: {}, afile: 'x', dangling: t.fixture('symlink', 'gone') });
  const inv = join(dir, 'inv.yml');
  const cases: Array<[string, string[], RegExp]> = [
    [
      'missing directory',
      ['fix', '--yes', '-i', inv, '-o', '/nonexistent/dir/r.json'],
      /-o \/nonexistent\/dir\/r\.json: its directory \/nonexistent\/dir does not exist/,
    ],
    ['a directory', ['audit', '-i', inv, '-o', join(dir, 'adir')], /is a directory/],
    ['below a file', ['audit', '-i', inv, '-o', join(dir, 'afile', 'r.json')], /is not a directory/],
    ['inventory --list', ['inventory', '--list', '-i', inv, '-o', '/nonexistent/r.json'], /does not exist/],
    [
      'migrate jobs --apply',
      ['migrate', 'jobs', '--apply', '--yes', '-i', inv, '-o', '/nonexistent/r.json'],
      /does not exist/,
    ],
    [
      '--backup-dir below a file',
      ['fix', '--yes', '-i', inv, '--backup-dir', join(dir, 'afile', 'b')],
      /--backup-dir .*afile is not a directory/,
    ],
    // fix changed the cluster, then failed to keep its report (ENOENT)
    [
      '--history a dangling symlink',
      ['fix', '--yes', '-i', inv, '--history', 'dangling'],
      /--history .*dangling: .*dangling is a symbolic link to a missing directory/,
    ],
    [
      '--history below a dangling symlink',
      ['audit', '-i', inv, '--history', join(dir, 'dangling', 'h')],
      /dangling is a symbolic link to a missing directory/,
    ],
    [
      '--backup-dir a dangling symlink',
      ['fix', '--yes', '-i', inv, '--backup-dir', join(dir, 'dangling')],
      /--backup-dir .*dangling is a symbolic link to a missing directory/,
    ],
  ];
  for (const [name, args, err] of cases) {
    const r = await runCli(args, { cwd: dir });
    t.equal(r.code, 2, `${name}: exit 2`);
    t.match(r.err, err, `${name}: says why`);
    t.notMatch(r.err, /\bm1\b|unreachable|ECONNREFUSED|at \S+\.ts:\d/, `${name}: no host was tried, no stack trace`);
  }
  t.same(readdirSync(dir).sort(), ['adir', 'afile', 'dangling', 'inv.yml'], 'no temp file anywhere');
  t.same(readdirSync(join(dir, 'adir')), []);
});
