/** .ci/run ends with what failed: the digest of a real tap run names the file, the assertion and its diff, not what passed. */
import t from 'tap';
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { withoutTap } from '../../helpers/tap-env.ts';

const ROOT = join(import.meta.dirname, '../../..');

t.test('a real tap run with a failed assertion, a timeout and a passing file', async (t) => {
  // inside the project, so the inner run resolves tap from its node_modules
  const dir = t.testdir();
  writeFileSync(
    join(dir, 'a.test.mjs'),
    [
      "import t from 'tap';",
      "t.test('outer', async (t) => { t.ok(true, 'a passing one'); t.equal(1, 2, 'one is two'); });",
      "t.test('slow', { timeout: 200 }, () => new Promise((r) => setTimeout(r, 2000)));",
    ].join('\n'),
  );
  writeFileSync(join(dir, 'b.test.mjs'), "import t from 'tap';\nt.pass('b passes');\n");
  const files = ['a.test.mjs', 'b.test.mjs'].map((f) => relative(ROOT, join(dir, f)));
  const run = await execa(
    join(ROOT, 'node_modules/.bin/tap'),
    ['--disable-coverage', '--allow-empty-coverage', ...files],
    {
      cwd: ROOT,
      env: withoutTap(process.env),
      extendEnv: false,
      reject: false,
    },
  );
  t.not(run.exitCode, 0, 'the inner run failed');
  const digest = await execa('awk', ['-f', join(ROOT, '.ci/failures.awk')], { input: run.stdout });
  const out = digest.stdout;
  t.match(out, new RegExp(`^FAILED FILE: \\d+ - ${files[0]!.replace(/[.]/g, '\\.')}`, 'm'), 'the file is named');
  t.match(out, /not ok \d+ - one is two\n/, 'the assertion is named');
  t.match(out, /fileName: .*a\.test\.mjs\n\s+lineNumber: 2\n/, 'where it is');
  t.match(out, /^\s+-2\n\s+\+1$/m, 'its diff');
  t.match(out, /not ok \d+ - timeout!\n\s+expired: slow/, 'the timeout and what expired');
  t.notMatch(out, /a passing one|b passes|b\.test\.mjs/, 'nothing that passed');
  t.notMatch(out, /source:|t\.equal\(1, 2/, 'no source excerpts: "at" says where');
});
