// The lab side of `npm run bench:scale`: a large-fleet lab in a temp dir, its round-trip time, the front's
// per-connection records, and the teardown (in finally and on SIGINT/SIGTERM) with a check that nothing is left.
import { readFileSync } from 'node:fs';
import { $, fs, os, path } from 'zx';
import { interruptible } from './bench-teardown.mjs';

const CLK_TCK = 100;
export const pidsWith = async (needle) => {
  const found = [];
  for (const p of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(p) || Number(p) === process.pid) continue;
    const cmd = await fs.readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes(needle)) found.push(Number(p));
  }
  return found;
};
export const cpuMsOf = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields 14 and 15 (utime, stime) are 12 and 13 after the command name
    return ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK;
  } catch {
    return 0;
  }
};
export const endPids = async (pids) => {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
  for (let i = 0; i < 100 && pids.some((p) => fs.existsSync(`/proc/${p}`)); i++)
    await new Promise((r) => setTimeout(r, 30));
};

/** CPU of the ssh ControlPersist masters a tool left (they left its process tree, so GNU time cannot see them); then ends them. */
export async function clientCpuOf(controlDir) {
  const pids = await pidsWith(controlDir);
  const cpu_ms = pids.reduce((s, p) => s + cpuMsOf(p), 0);
  await endPids(pids);
  return { cpu_ms: Math.round(cpu_ms), count: pids.length };
}

/** A front-mode fleet lab of `hosts` hosts (clusters of 10 nodes up to 100 hosts, of 25 above). */
export async function scaleLab(root, bin, hosts) {
  const nodes = hosts <= 100 ? 10 : 25;
  if (hosts % nodes) throw new Error(`--hosts ${hosts}: a multiple of ${nodes} is needed`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'smdoctor-bench-scale-'));
  const work = path.join(dir, 'bench');
  await fs.ensureDir(work);
  let downing = null;
  const down = () =>
    (downing ??= (async () => {
      await $({ cwd: root, nothrow: true })`node ${bin} lab down --dir ${dir}`;
      const left = await pidsWith(dir);
      if (left.length) {
        console.error(`bench:scale: ending ${left.length} leftover lab process(es): ${left.join(' ')}`);
        process.exitCode = 1;
        await endPids(left);
      }
      await fs.remove(dir);
    })());
  const track = interruptible(() => down());
  const t0 = Date.now();
  const up = await track(
    () =>
      $({
        cwd: root,
        nothrow: true,
        env: {
          ...process.env,
          SMDOCTOR_LAB_FRONT: '1',
          SMDOCTOR_LAB_CLUSTERS: String(hosts / nodes),
          SMDOCTOR_LAB_NODES: String(nodes),
        },
      })`node ${bin} lab up --dir ${dir} --scenario fleet`,
  );
  if (up.exitCode !== 0) {
    await down();
    throw new Error(`lab up failed (${up.exitCode}): ${up.stderr.slice(-2000)}`);
  }
  const layout = await fs.readJson(path.join(dir, 'lab.json'));
  const addrs = layout.hosts.map((h) => h.ip);
  if (!addrs.every((ip) => ip.startsWith('127.'))) {
    await down();
    throw new Error(`lab address outside 127.0.0.0/8`);
  }
  const { LEASE_PATH } = await import('../dist/facts/lease-note.js');
  const linksFile = path.join(dir, 'front', 'links.jsonl');
  console.log(`lab up: ${hosts} hosts in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return {
    root,
    bin,
    dir,
    work,
    hosts: layout.hosts,
    clusters: layout.clusters,
    inventory: layout.inventoryPath,
    key: layout.sshKeyFile,
    knownHosts: layout.knownHostsFile,
    ca: layout.caFile,
    password: (await fs.readFile(layout.passwordFile, 'utf8')).trim(),
    leasePath: LEASE_PATH,
    track,
    down,
    setRtt: (ms) => fs.writeFile(path.join(dir, 'rtt-ms'), `${ms}\n`),
    /** Where the front's connection records stand now. */
    mark: () => (fs.existsSync(linksFile) ? fs.statSync(linksFile).size : 0),
    linksFile,
  };
}

/** Round trips and bytes per connection the front recorded since `offset`, summed by kind (ssh, api). */
export function linksSince(lab, offset) {
  // the front writes a record when a connection closes: give the last ones a moment
  const text = fs.readFileSync(lab.linksFile, 'latin1').slice(offset);
  const by = {};
  for (const line of text.split('\n').filter(Boolean)) {
    const r = JSON.parse(line);
    const k = (by[r.kind] ??= { connections: 0, round_trips: [], up: 0, down: 0 });
    k.connections++;
    k.round_trips.push(r.roundTrips);
    k.up += r.up;
    k.down += r.down;
  }
  for (const k of Object.values(by)) {
    const rt = k.round_trips.sort((a, b) => a - b);
    k.round_trips = { min: rt[0], median: rt[rt.length >> 1], max: rt.at(-1), total: rt.reduce((s, x) => s + x, 0) };
  }
  return by;
}
