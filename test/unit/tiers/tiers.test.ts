/** The tiers hold: every test file is in one (else no run would pick it up), and the unit tier starts nothing. */
import t from 'tap';
import { execFile, spawn } from 'node:child_process';
import net from 'node:net';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { guardUnitTier } from '../../helpers/unit-guard.ts';
import { testFiles, unitFiles } from '../../helpers/tiers.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));

t.test('every test file lives in a tier', async (t) => {
  const all = [...(await testFiles('test')), ...(await testFiles('lab/test'))];
  t.ok(all.length > 200, `${all.length} test files`);
  t.same(
    all.filter((f) => !/^(lab\/)?test\/(unit|integration|e2e)\//.test(f)),
    [],
    'outside test/{unit,integration,e2e}/ a file would never run',
  );
});

t.test('the unit runner finds every unit file, and narrows to the ones asked', async (t) => {
  const unit = (await testFiles('test/unit')).concat(await testFiles('lab/test/unit'));
  const urls = await unitFiles();
  t.same(urls.map((u) => relative(root, fileURLToPath(u))).sort(), unit.sort());
  const some = await unitFiles(['test/unit/tiers/']);
  t.same(
    some.map((u) => relative(root, fileURLToPath(u))),
    ['test/unit/tiers/tiers.test.ts'],
  );
});

t.test('under the guard, a process or a socket fails the test that asks for one', async (t) => {
  guardUnitTier();
  t.throws(() => spawn('true'), /a unit test started a process \(spawn\)/);
  t.throws(() => execFile('true'), /started a process \(execFile\)/);
  t.throws(() => net.createServer().listen(0), /opened a listening socket/);
  t.throws(() => net.connect(9, '127.0.0.1'), /opened a connection/);
});

// a fresh `npm ci` brings tap built with all its plugins; tap rebuilds on its first run but runs that run with the
// old set, so CI (one run on a fresh clone) loaded ts-node and tap's mock beside tsx in every file: ~3 CPU-s each
t.test("test files load with tsx's hooks only: tap's plugins are built as package.json names them", async (t) => {
  const loaders = process.execArgv.filter((a) => a.startsWith('--import') || a.startsWith('--loader'));
  t.same(
    loaders.filter((a) => /@tapjs\/(typescript|mock)/.test(a)),
    [],
    `${loaders.join(' ')}: run \`npx tap build\` (npm ci's prepare does)`,
  );
});
