#!/usr/bin/env zx
// The quick-start demo: a broken lab audited, fixed and audited again; then the migration's view of its queries.
// Usage: npm run demo [-- --keep] [-- --scenario NAME] [-- --bastion]   (--keep leaves the lab up to explore;
// --bastion puts the nodes in a network namespace reachable only through a jump host: needs root)
import { $, argv, chalk, fs, path } from 'zx';

$.verbose = false;
const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, '.lab');
const scenario = argv.scenario ?? 'broken';
const smdoctor = (args) =>
  $({
    cwd: root,
    nothrow: true,
    stdio: ['ignore', 'inherit', 'inherit'],
  })`node ${path.join(root, 'bin/smdoctor.js')} ${args}`;
const step = (title) => console.log(`\n${chalk.bold.cyan(`▶ ${title}`)}`);

if (await fs.pathExists(path.join(dir, 'lab.json'))) await smdoctor(['lab', 'down', '--dir', dir]);

const bastion = argv.bastion ? ['--bastion'] : [];
step(`smdoctor lab up --scenario ${scenario} ${bastion.join(' ')}`);
const up = await smdoctor(['lab', 'up', '--dir', dir, '--scenario', scenario, ...bastion]);
if (up.exitCode !== 0) process.exit(up.exitCode ?? 3);
const inventory = path.join(dir, 'inventory.yml');
const bastionLog = path.join(dir, 'bastion', 'sshd', 'sshd.log');
const logins = async () =>
  ((await fs.readFile(bastionLog, 'utf8').catch(() => '')).match(/Accepted publickey for /g) ?? []).length;

if (argv.bastion) {
  step('the access path: ssh_config with ProxyJump, api_via_ssh in the inventory');
  console.log(chalk.dim(await fs.readFile(path.join(dir, 'ssh', 'config'), 'utf8')));
  const lab = JSON.parse(await fs.readFile(path.join(dir, 'lab.json'), 'utf8'));
  const node = lab.hosts[0];
  const direct = await $({ nothrow: true })`timeout 5 bash -c ${`exec 3<>/dev/tcp/${node.ip}/${node.sshPort}`}`;
  console.log(
    `direct connection from this host to ${node.name} (${node.ip}:${node.sshPort}): ${direct.exitCode === 0 ? chalk.red('connected (not isolated!)') : chalk.green(`refused: ${direct.stderr.trim().split('\n').at(-1)}`)}`,
  );
  console.log(
    `bastion ${lab.bastion.ip}:${lab.bastion.sshPort} in namespace ${lab.bastion.netns}; nodes in ${lab.bastion.fleetNetns}`,
  );
}
/** After a run through the jump host: how many times it logged in on the bastion. */
const loginsSince = async (before) => {
  if (argv.bastion) console.log(chalk.dim(`(bastion logins during this run: ${(await logins()) - before})`));
};

// every report of this run is kept there; the demo compares the first audit with the last
const history = path.join(dir, 'history');
await fs.remove(history);

try {
  step(`smdoctor audit -i ${path.relative(root, inventory)} --history .lab/history`);
  let before = await logins();
  const audit = await smdoctor(['audit', '-i', inventory, '--format', 'text', '--history', history]);
  console.log(chalk.dim(`(audit exited ${audit.exitCode}: 0 all pass, 1 findings, 2 usage, 3 incomplete)`));
  await loginsSince(before);

  step('smdoctor audit --format html -o .lab/audit.html   (one page to hand to people: open it in a browser)');
  await smdoctor(['audit', '-i', inventory, '--format', 'html', '-o', path.join(dir, 'audit.html')]);

  step('smdoctor fix --yes   (backups under .lab/backups)');
  before = await logins();
  await smdoctor([
    'fix',
    '-i',
    inventory,
    '--yes',
    '--format',
    'text',
    '--backup-dir',
    path.join(dir, 'backups'),
    '--history',
    history,
  ]);
  await loginsSince(before);

  step('smdoctor audit, once more');
  before = await logins();
  const again = await smdoctor(['audit', '-i', inventory, '--format', 'text', '--history', history]);
  console.log(chalk.dim(`(audit exited ${again.exitCode})`));
  await loginsSince(before);

  step('smdoctor diff FIRST LAST   (the first audit against the last, from .lab/history)');
  const audits = (await fs.readdir(history)).filter((n) => n.endsWith('.audit.json')).sort();
  await smdoctor(['diff', path.join(history, audits[0]), path.join(history, audits.at(-1)), '--format', 'text']);

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

  // an SRE's own checks beside the vendor's five: a pack finds drift they do not look for, a waiver accepts one finding
  step(
    'smdoctor audit --pack examples/packs/lab-drift.yml --waivers examples/packs/lab-drift.waivers.yml (lab "pack-drift")',
  );
  const pdir = path.join(root, '.lab-packs');
  if (await fs.pathExists(path.join(pdir, 'lab.json'))) await smdoctor(['lab', 'down', '--dir', pdir]);
  const pup = await smdoctor(['lab', 'up', '--dir', pdir, '--scenario', 'pack-drift']);
  if (pup.exitCode === 0) {
    try {
      const pinv = path.join(pdir, 'inventory.yml');
      const examples = path.join(root, 'examples', 'packs');
      const packed = await smdoctor([
        'audit',
        '-i',
        pinv,
        '--pack',
        path.join(examples, 'lab-drift.yml'),
        '--waivers',
        path.join(examples, 'lab-drift.waivers.yml'),
        '--format',
        'text',
      ]);
      console.log(chalk.dim(`(audit exited ${packed.exitCode}: the pack's failures count, the waived one does not)`));
    } finally {
      await smdoctor(['lab', 'down', '--dir', pdir]);
    }
  }

  // the fleet pack on a lab where each of its failures sits on some node (docs/fleet-pack.md)
  step('smdoctor audit --pack builtin:fleet on a third lab (lab "fleet-drift")');
  const fdir = path.join(root, '.lab-fleet');
  if (await fs.pathExists(path.join(fdir, 'lab.json'))) await smdoctor(['lab', 'down', '--dir', fdir]);
  const fup = await smdoctor(['lab', 'up', '--dir', fdir, '--scenario', 'fleet-drift']);
  if (fup.exitCode === 0) {
    try {
      const finv = path.join(fdir, 'inventory.yml');
      const fa = await smdoctor(['audit', '-i', finv, '--pack', 'builtin:fleet', '--format', 'text']);
      console.log(chalk.dim(`(audit with the fleet pack exited ${fa.exitCode}: failures found)`));
    } finally {
      await smdoctor(['lab', 'down', '--dir', fdir]);
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
    if (argv.bastion)
      console.log(
        `Through the bastion: ssh -F ${path.join(dir, 'ssh', 'config')} -i ${path.join(dir, 'ssh', 'id_ed25519')} -o UserKnownHostsFile=${path.join(dir, 'ssh', 'known_hosts')} -p 2222 NODE_ADDRESS`,
      );
  } else {
    step('smdoctor lab down');
    await smdoctor(['lab', 'down', '--dir', dir]);
  }
}
