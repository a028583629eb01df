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
