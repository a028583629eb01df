#!/usr/bin/env zx
// The quick-start demo: a broken lab audited, fixed and audited again; then the migration's view of its queries.
// Usage: npm run demo [-- --keep] [-- --scenario NAME]   (--keep leaves the lab up to explore)
import { $, argv, chalk, fs, path } from 'zx';

$.verbose = false;
const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, '.lab');
const scenario = argv.scenario ?? 'broken';
const smdoctor = (args) => $({ cwd: root, nothrow: true, stdio: ['ignore', 'inherit', 'inherit'] })`node ${path.join(root, 'bin/smdoctor.js')} ${args}`;
const step = (title) => console.log(`\n${chalk.bold.cyan(`▶ ${title}`)}`);

if (await fs.pathExists(path.join(dir, 'lab.json'))) await smdoctor(['lab', 'down', '--dir', dir]);

step(`smdoctor lab up --scenario ${scenario}`);
const up = await smdoctor(['lab', 'up', '--dir', dir, '--scenario', scenario]);
if (up.exitCode !== 0) process.exit(up.exitCode ?? 3);
const inventory = path.join(dir, 'inventory.yml');

try {
  step(`smdoctor audit -i ${path.relative(root, inventory)}`);
  const audit = await smdoctor(['audit', '-i', inventory, '--format', 'text']);
  console.log(chalk.dim(`(audit exited ${audit.exitCode}: 0 all pass, 1 findings, 2 usage, 3 incomplete)`));

  step('smdoctor fix --yes   (backups under .lab/backups)');
  await smdoctor(['fix', '-i', inventory, '--yes', '--format', 'text', '--backup-dir', path.join(dir, 'backups')]);

  step('smdoctor audit, once more');
  const again = await smdoctor(['audit', '-i', inventory, '--format', 'text']);
  console.log(chalk.dim(`(audit exited ${again.exitCode})`));

  // the documented rolling restart on master-eligible data nodes: allocation held at primaries, the elected manager last
  step('smdoctor fix on a second lab: rolling restart of master-eligible data nodes (lab "rolling")');
  const rdir = path.join(root, '.lab-rolling');
  if (await fs.pathExists(path.join(rdir, 'lab.json'))) await smdoctor(['lab', 'down', '--dir', rdir]);
  const rup = await smdoctor(['lab', 'up', '--dir', rdir, '--scenario', 'rolling']);
  if (rup.exitCode === 0) {
    try {
      const rinv = path.join(rdir, 'inventory.yml');
      await smdoctor(['fix', '-i', rinv, '--yes', '--format', 'text', '--backup-dir', path.join(rdir, 'backups')]);
      const log = path.join(rdir, 'cluster', 'allocation.log');
      if (await fs.pathExists(log)) {
        console.log(chalk.dim('lab allocation log (no "relocate" line: nothing was copied elsewhere):'));
        console.log(chalk.dim((await fs.readFile(log, 'utf8')).trim()));
      }
      const ragain = await smdoctor(['audit', '-i', rinv, '--format', 'text']);
      console.log(chalk.dim(`(audit of the rolling lab exited ${ragain.exitCode})`));
    } finally {
      await smdoctor(['lab', 'down', '--dir', rdir]);
    }
  }

  const query = 'source logs-* | search host=web01 user=bob | stats count by host';
  step(`smdoctor migrate explain '${query}'`);
  await smdoctor(['migrate', 'explain', '-i', inventory, '--format', 'text', query]);

  step('smdoctor migrate jobs   (stored queries that need the text operator)');
  await smdoctor(['migrate', 'jobs', '-i', inventory, '--format', 'text']);
} finally {
  if (argv.keep) {
    console.log(`\nThe lab is still up. Inventory: ${inventory}`);
    console.log(`Explore: smdoctor lab status --dir ${dir} --format text   Stop: smdoctor lab down --dir ${dir}`);
  } else {
    step('smdoctor lab down');
    await smdoctor(['lab', 'down', '--dir', dir]);
  }
}
