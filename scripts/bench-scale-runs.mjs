// The tool runs bench:scale and bench:serve share: smdoctor audit and the OpenSSH fan-out floor, each under GNU time.
import { performance } from 'node:perf_hooks';
import { $, fs, os, path } from 'zx';
import { batchCommand, batchPaths } from '../dist/audit/batch.js';
import { pidFile } from '../lab/dist/nodefacts.js';

const load = () => os.loadavg()[0];

/** One tool run under GNU time: wall here, the tool's own CPU (its waited-for children included) and peak RSS there. */
export async function timed(lab, name, cmd, env = {}) {
  const tfile = path.join(lab.work, `time-${name}.txt`);
  const load0 = load();
  const t0 = performance.now();
  const r = await lab.track(
    () =>
      $({
        cwd: lab.root,
        nothrow: true,
        env: { ...process.env, ...env },
      })`/usr/bin/time -f ${'%U %S %M'} -o ${tfile} ${cmd}`,
  );
  const wall = performance.now() - t0;
  const [user, sys, rss] = (await fs.readFile(tfile, 'utf8')).trim().split('\n').pop().split(' ').map(Number);
  return {
    r,
    wall_ms: Math.round(wall),
    cpu_ms: Math.round((user + sys) * 1000),
    rss_mib: Math.round(rss / 1024),
    load: [load0, load()],
  };
}

export async function runSmdoctor(lab, f, tag, smdBin = lab.bin) {
  const report = path.join(lab.work, `report-${tag}.json`);
  const t = await timed(lab, `smd-${tag}`, [
    'node',
    smdBin,
    'audit',
    '-i',
    lab.inventory,
    '--format',
    'json',
    '-o',
    report,
    '--forks',
    String(f),
  ]);
  const summary = (await fs.readJson(report).catch(() => ({}))).summary;
  const ok = t.r.exitCode === 1 && summary?.hosts === lab.hosts.length && summary?.unreachable === 0;
  return {
    ...t,
    ok,
    why: ok ? '' : `exit ${t.r.exitCode}, summary ${JSON.stringify(summary)} ${t.r.stderr.slice(-400)}`,
  };
}

export const SSH_OPTS = (lab) => [
  '-p',
  '2222',
  '-i',
  lab.key,
  '-o',
  'BatchMode=yes',
  '-o',
  `UserKnownHostsFile=${lab.knownHosts}`,
  '-o',
  'StrictHostKeyChecking=yes',
  '-o',
  'KexAlgorithms=curve25519-sha256',
  '-o',
  'ConnectTimeout=60',
];

/**
 * The floor: one ssh per host running the audit's own batched read, one curl per cluster with its REST reads, under
 * xargs -P. `sshOpts` go to every ssh (bench:serve's ControlPath); `name` is the floor's directory under the lab's.
 */
/** The audit's layout probe of a lab host, as its inventory line says it (folders given, the engine's pid file). */
const labProbe = (lab, h) => ({
  engine: 'opensearch',
  searchHome: h.searchHome,
  webHome: h.webHome,
  searchHomeGiven: true,
  webHomeGiven: true,
  ...(h.engineNode ? { enginePidFile: pidFile(lab.dir, h.name, 'opensearch') } : {}),
});

export async function prepareFloor(lab, { sshOpts = [], name = 'floor' } = {}) {
  const dir = path.join(lab.work, name);
  await fs.ensureDir(dir);
  const args = [];
  for (const c of lab.clusters) {
    const conf = path.join(dir, `${c.name}.curl`);
    const reads = [
      '/',
      '/_cat/nodes?format=json&h=ip,name,node.roles,cluster_manager',
      '/_cat/nodeattrs?format=json',
      '/_cat/plugins?format=json',
      '/_core/limits_user/base_limit',
      '/.sm_sme_limits_user/_doc/base_limit',
      '/.sm_sme_limits_user/_settings',
      '/_cat/shards/.sm_sme_limits_user?format=json',
      '/_cluster/health',
      '/_cluster/settings?flat_settings=true',
      lab.leasePath,
    ];
    const lines = [`user = "admin:${lab.password}"`, `cacert = "${lab.ca}"`, 'silent', 'show-error'];
    reads.forEach((p, i) =>
      lines.push(`url = "${c.apiUrl}${p}"`, `output = "${path.join(dir, `${c.name}-${i}.json`)}"`),
    );
    await fs.writeFile(conf, `${lines.join('\n')}\n`, { mode: 0o600 });
    args.push(path.join(dir, `${c.name}.rest`), 'rest', conf);
  }
  lab.boundaries = new Map();
  for (const h of lab.hosts) {
    const b = `SMDOCTOR-floor${h.name.replace(/[^a-z0-9]/g, '')}`;
    lab.boundaries.set(h.name, b);
    args.push(path.join(dir, `${h.name}.out`), `root@${h.ip}`, batchCommand(batchPaths(labProbe(lab, h)), b));
  }
  const jobs = path.join(dir, 'jobs');
  await fs.writeFile(jobs, args.map((a) => `${a}\0`).join(''));
  const script = `if [ "$2" = rest ]; then exec curl -sS --no-progress-meter --parallel --parallel-immediate -K "$3" > "$1"; else exec ssh ${[
    ...SSH_OPTS(lab),
    ...sshOpts,
  ]
    .map((x) => `'${x}'`)
    .join(' ')} "$2" "$3" > "$1"; fi`;
  return { dir, jobs, script };
}

export async function runFloor(lab, floor, f, tag) {
  await $`find ${floor.dir} -name '*.out' -delete`;
  const t = await timed(lab, `floor-${tag}`, [
    'xargs',
    '-0',
    '-a',
    floor.jobs,
    '-n',
    '3',
    '-P',
    String(f),
    'sh',
    '-c',
    floor.script,
    'sh',
  ]);
  let missing = 0;
  for (const h of lab.hosts) {
    const o = await fs.readFile(path.join(floor.dir, `${h.name}.out`), 'latin1').catch(() => '');
    if (!o.includes(`${lab.boundaries.get(h.name)} DONE`)) missing++;
  }
  const ok = t.r.exitCode === 0 && missing === 0;
  return {
    ...t,
    ok,
    why: ok ? '' : `xargs exit ${t.r.exitCode}, ${missing} hosts without output ${t.r.stderr.slice(-400)}`,
  };
}
