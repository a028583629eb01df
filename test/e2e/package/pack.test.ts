/**
 * The package as users get it: npm pack, installed with no dev dependencies into a temp prefix, run by plain Node
 * (no tsx anywhere): --version, an offline explain, a lab audit with the installed binary, import('smdoctor').
 * The lab is a package of its own (lab/, @smdoctor/lab): the tarball carries none of it, so the lab audited here is
 * the repository's, started by its built CLI.
 */
import t from 'tap';
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../../..');
const version = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).version as string;
// children get plain Node: no loader inherited from the test runner
const plain = { ...process.env, NODE_OPTIONS: '' };
// build, pack, an offline install and a lab: minutes on a loaded machine
t.setTimeout(900_000);

/** npm test has just built; alone, this file builds when a source is newer than the last build (smdoctor's, the lab's). */
async function buildIsStale(): Promise<boolean> {
  for (const pkg of [root, join(root, 'lab')]) {
    const built = await stat(join(pkg, 'dist', '.tsbuildinfo')).catch(() => null);
    if (!built) return true;
    const sources = await readdir(join(pkg, 'src'), { recursive: true });
    const times = await Promise.all(sources.map(async (f) => (await stat(join(pkg, 'src', f))).mtimeMs));
    if (Math.max(...times, (await stat(join(pkg, 'package.json'))).mtimeMs) > built.mtimeMs) return true;
  }
  return false;
}

t.test('packed, installed without dev dependencies, run by plain Node', async (t) => {
  const tmp = t.testdir({
    'm.json': JSON.stringify({
      x: { mappings: { properties: { a: { type: 'text', fields: { keyword: { type: 'keyword' } } } } } },
    }),
  });
  // outside the repository, whose node_modules holds the lab workspace: an install finds only what it carries
  const prefix = await mkdtemp(join(tmpdir(), 'smdoctor-pack-prefix-'));
  t.teardown(() => rm(prefix, { recursive: true, force: true }));
  if (await buildIsStale()) await execa('npm', ['run', 'build', '--silent'], { cwd: root });
  const pack = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: root });
  const [info] = JSON.parse(pack.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const shipped = info!.files.map((f) => f.path);
  t.ok(shipped.includes('dist/cli/main.js') && shipped.includes('dist/index.d.ts'), 'ships the build and its types');
  t.notOk(
    shipped.some((f) => f.startsWith('src/') || f.startsWith('test/') || f.endsWith('.tsbuildinfo')),
    'no sources, tests or build state',
  );
  t.notOk(
    shipped.some((f) => f.startsWith('dist/lab/') || f.startsWith('lab/') || f.startsWith('scenarios/')),
    'no lab: it is a package of its own',
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

  // the pack loader's dependencies (regexpp, semver) are production ones; the schema ships beside the report's
  t.ok(shipped.includes('schema/pack.json'), 'ships schema/pack.json');
  const packFile = join(root, 'examples', 'packs', 'acme-search.yml');
  const valid = await smdoctor(['pack', 'validate', packFile]);
  t.equal(valid.exitCode, 0, valid.stderr);
  t.match(valid.stdout, /ok \(pack acme-search, \d+ checks\)/);

  const status = await smdoctor(['lab', 'status']);
  t.equal(status.exitCode, 2, 'no lab installed: a usage error');
  t.match(status.stderr, /@smdoctor\/lab, not installed here: it is the lab\/ workspace of smdoctor's repository/);
  t.match(status.stderr, /npm ci/, 'and how a clone of the repository gets it');

  // the repository's lab, by its built CLI; a short directory: the lab's control socket path must fit the kernel's limit
  const repoCli = (args: string[], cwd = tmp) =>
    execa(process.execPath, [join(root, 'bin', 'smdoctor.js'), ...args], { cwd, env: plain, reject: false });
  const lab = await mkdtemp(join(tmpdir(), 'smdoctor-pack-lab-'));
  t.teardown(async () => {
    // from the repository: the test directory may already be gone when teardowns run
    const down = await repoCli(['lab', 'down', '--dir', lab], root);
    if (down.exitCode !== 0) throw new Error(`lab down failed: ${down.stderr}`);
    await rm(lab, { recursive: true, force: true });
  });
  const up = await repoCli(['lab', 'up', '--dir', lab, '--scenario', 'healthy']);
  t.equal(up.exitCode, 0, up.stderr);
  const pid = (await readFile(join(lab, 'run', 'daemon.pid'), 'utf8')).trim();
  const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
  t.ok(cmdline.includes(join(root, 'lab', 'dist', 'daemon.js')), 'the lab daemon runs from the built lab/dist/');
  t.notOk(
    cmdline.some((a) => a.includes('tsx')),
    'without tsx',
  );
  const audit = await smdoctor(['audit', '--format', 'json'], tmp);
  t.equal(audit.exitCode, 2, 'no default inventory outside the lab directory');
  // a directory whose .lab is that running lab: its inventory is the default only where the lab package is installed
  const here = join(tmp, 'here');
  await mkdir(here);
  await symlink(lab, join(here, '.lab'));
  t.equal((await repoCli(['inventory', '--list'], here)).exitCode, 0, 'the repository finds the lab');
  const noLab = await smdoctor(['audit', '--format', 'json'], here);
  t.equal(noLab.exitCode, 2, 'the installed package finds no lab');
  t.match(noLab.stderr, /no inventory/);
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
    { cwd: prefix, env: plain, reject: false },
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
  // what the lab (and other tools) use of smdoctor, listed apart in src/index.ts
  const forTools = [
    'explainDetailed',
    'MappingIndex',
    'extractJobs',
    'extractDashboards',
    'entryOf',
    'replacementObject',
    'parseLong',
    'stringifyLong',
    'encryptVault',
    'withAliasLimit',
    'resolvePlaceholders',
    'resolveSetting',
  ];
  for (const f of forTools) t.equal(kinds[f], 'function', f);
  t.notOk(
    keys.some((k) => /lab|Store|Server|Sshd/i.test(k) && k !== 'backupStore'),
    `no lab in the public API: ${keys.join(' ')}`,
  );
  const entryPoints = keys.filter((k) => !forTools.includes(k));
  t.ok(entryPoints.length <= 20, `a handful of entry points, not ${entryPoints.length}`);
});
