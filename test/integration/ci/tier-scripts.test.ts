/** Each tier's npm script runs exactly that tier's files, and `tap` alone (npm test) runs them all: tap itself lists them. */
import t, { type Test } from 'tap';
import { execa } from 'execa';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { testFiles } from '../../helpers/tiers.ts';
import { withoutTap } from '../../helpers/tap-env.ts';

const ROOT = join(import.meta.dirname, '../../..');
const scripts = (JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
  .scripts;
const tierFiles = async (...dirs: string[]): Promise<string[]> =>
  (await Promise.all(dirs.map((d) => testFiles(d).catch(() => [])))).flat().sort();

// what tap would run for a script's arguments, asked of tap (its globbing, its include config)
async function listed(t: Test, script: string): Promise<string[]> {
  t.match(script, /^tap( |$)/, `${script}: a tap run`);
  const run = await execa(script.replace(/^tap/, 'tap list'), {
    shell: true,
    cwd: ROOT,
    env: { PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}` },
    extendEnv: false,
    reject: false,
  });
  return run.stdout.split('\n').filter(Boolean).sort();
}

t.test('test:unit runs the unit files in one process; arguments narrow it to the files asked', async (t) => {
  const run = await execa('npm', ['run', '-s', 'test:unit', '--', 'test/unit/tiers/'], {
    cwd: ROOT,
    env: withoutTap(process.env),
    extendEnv: false,
    reject: false,
  });
  t.equal(run.exitCode, 0, run.stderr);
  t.match(run.stdout, /ok \d+ - 1 unit files\n/, 'one file: the one asked');
  t.match(run.stdout, /ok \d+ - test\/unit\.ts/);
});

t.test('test:integration runs every integration file, of the tool and of the lab', async (t) => {
  const want = await tierFiles('test/integration', 'lab/test/integration');
  t.ok(want.length > 100, `${want.length} files`);
  t.same(await listed(t, scripts['test:integration']!), want);
});

t.test('test:e2e runs every end-to-end file', async (t) => {
  const want = await tierFiles('test/e2e', 'lab/test/e2e');
  t.ok(want.length > 5, `${want.length} files`);
  t.same(await listed(t, scripts['test:e2e']!), want);
});

t.test('plain tap (what npm test runs) runs the three tiers, nothing else', async (t) => {
  const want = await tierFiles('test/integration', 'lab/test/integration', 'test/e2e', 'lab/test/e2e');
  t.same(await listed(t, 'tap'), ['test/unit.ts', ...want].sort());
});
