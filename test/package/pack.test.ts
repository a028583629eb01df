/**
 * The package as users get it: npm pack, installed with no dev dependencies into a temp prefix, run by plain Node
 * (no tsx anywhere): --version, an offline explain, a lab audit with the installed binary, import('smdoctor').
 */
import t from 'tap';
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const version = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).version as string;
// children get plain Node: no loader inherited from the test runner
const plain = { ...process.env, NODE_OPTIONS: '' };
// build, pack, an offline install and a lab: minutes on a loaded machine
t.setTimeout(900_000);

/** npm test has just built; alone, this file builds when a source is newer than the last build. */
async function buildIsStale(): Promise<boolean> {
  const built = await stat(join(root, 'dist', '.tsbuildinfo')).catch(() => null);
  if (!built) return true;
  const sources = await readdir(join(root, 'src'), { recursive: true });
  const times = await Promise.all(sources.map(async (f) => (await stat(join(root, 'src', f))).mtimeMs));
  return Math.max(...times, (await stat(join(root, 'package.json'))).mtimeMs) > built.mtimeMs;
}

t.test('packed, installed without dev dependencies, run by plain Node', async (t) => {
  const tmp = t.testdir({
    'm.json': JSON.stringify({
      x: { mappings: { properties: { a: { type: 'text', fields: { keyword: { type: 'keyword' } } } } } },
    }),
  });
  const prefix = join(tmp, 'prefix');
  if (await buildIsStale()) await execa('npm', ['run', 'build', '--silent'], { cwd: root });
  const pack = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: root });
  const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const shipped = info!.files.map((f) => f.path);
  t.ok(shipped.includes('dist/cli/main.js') && shipped.includes('dist/index.d.ts'), 'ships the build and its types');
  t.notOk(
    shipped.some((f) => f.startsWith('src/') || f.startsWith('test/') || f.endsWith('.tsbuildinfo')),
    'no sources, tests or build state',
  );

  // installed as npm would, but offline: the tarball unpacked into node_modules, its production dependencies from
  // the lockfile and the cache `npm ci` filled (no network in tests), the bin linked
  const mods = join(prefix, 'node_modules');
  const pkg = join(mods, 'smdoctor');
  await mkdir(pkg, { recursive: true });
  await execa('tar', ['-xzf', join(tmp, info!.filename), '-C', pkg, '--strip-components=1']);
  await copyFile(join(root, 'package-lock.json'), join(pkg, 'package-lock.json'));
  // --omit=optional too: our lockfile marks typescript devOptional (valibot's optional peer, present for our dev tree),
  // which a registry install, without our lockfile, never adds; it also drops ssh2's native speed-ups, which it can do without
  await execa(
    'npm',
    ['ci', '--omit=dev', '--omit=optional', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'],
    {
      cwd: pkg,
    },
  );
  await mkdir(join(mods, '.bin'));
  await symlink('../smdoctor/bin/smdoctor.js', join(mods, '.bin', 'smdoctor'));
  const tree = (await execa('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: pkg })).stdout;
  for (const dev of ['tsx', 'typescript', 'esbuild', 'zx', 'tap']) {
    t.notOk(
      tree.split('\n').some((p) => p.endsWith(`/node_modules/${dev}`)),
      `npm ls --omit=dev lists no ${dev}`,
    );
    t.notOk(existsSync(join(pkg, 'node_modules', dev)), `${dev} is not installed`);
  }
  const smdoctor = (args: string[], cwd = tmp) =>
    execa(join(mods, '.bin', 'smdoctor'), args, { cwd, env: plain, reject: false });

  const v = await smdoctor(['--version']);
  t.equal(v.stdout.trim(), version, v.stderr);
  const help = await smdoctor(['--help']);
  t.equal(help.exitCode, 0);
  t.match(help.stdout, /Usage: smdoctor/);

  const ex = await smdoctor([
    'migrate',
    'explain',
    '--format',
    'json',
    '--mappings',
    'm.json',
    '--macros',
    '/dev/null',
    'source x | search a=b',
  ]);
  t.equal(ex.exitCode, 1, ex.stderr);
  t.match(JSON.parse(ex.stdout), { replacement: /text/ });

  // a short directory: the lab's control socket path must fit the kernel's limit
  const lab = await mkdtemp(join(tmpdir(), 'smdoctor-pack-lab-'));
  t.teardown(async () => {
    await smdoctor(['lab', 'down', '--dir', lab]);
    await rm(lab, { recursive: true, force: true });
  });
  const up = await smdoctor(['lab', 'up', '--dir', lab, '--scenario', 'healthy']);
  t.equal(up.exitCode, 0, up.stderr);
  const pid = (await readFile(join(lab, 'run', 'daemon.pid'), 'utf8')).trim();
  const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
  t.ok(
    cmdline.includes(join(mods, 'smdoctor', 'dist', 'lab', 'daemon.js')),
    'the lab daemon runs from the installed dist/',
  );
  t.notOk(
    cmdline.some((a) => a.includes('tsx')),
    'without tsx',
  );
  const audit = await smdoctor(['audit', '--format', 'json'], tmp);
  t.equal(audit.exitCode, 2, 'no default inventory outside the lab directory');
  const a = await execa(join(mods, '.bin', 'smdoctor'), ['audit', '--format', 'json'], {
    cwd: tmp,
    env: { ...plain, SMDOCTOR_INVENTORY: join(lab, 'inventory.yml') },
    reject: false,
  });
  t.equal(a.exitCode, 0, a.stderr);
  const report = JSON.parse(a.stdout);
  t.equal(report.version, version);
  t.ok(
    report.clusters.length >= 1 &&
      report.clusters.every((c: { checks: Array<{ status: string }> }) => c.checks.every((k) => k.status === 'pass')),
    'a healthy lab passes',
  );

  const api = await execa(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
    const m = await import('smdoctor');
    console.log(JSON.stringify({ keys: Object.keys(m).sort(), kinds: Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v])) }));`,
    ],
    { cwd: tmp, env: plain, reject: false },
  );
  t.equal(api.exitCode, 0, api.stderr);
  const { keys, kinds } = JSON.parse(api.stdout) as { keys: string[]; kinds: Record<string, string> };
  for (const f of [
    'loadInventory',
    'selectHosts',
    'runAudit',
    'applyPlan',
    'fixReport',
    'backupStore',
    'explain',
    'renderReport',
  ])
    t.equal(kinds[f], 'function', f);
  t.notOk(
    keys.some((k) => /lab|Store|Server|Sshd/i.test(k) && k !== 'backupStore'),
    `no lab in the public API: ${keys.join(' ')}`,
  );
  t.ok(keys.length <= 20, `a handful of entry points, not ${keys.length}`);
});
