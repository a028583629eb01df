#!/usr/bin/env zx
// `npm run bench:scale`: smdoctor audit beside an OpenSSH fan-out floor and Ansible ad hoc, on a large-fleet lab
// (one front process, sshd -i per connection) behind a user-space delay of RTT/2 each way.
// Usage: npm run bench:scale -- [--hosts 100,1000] [--rtt 0,50] [--runs 3] [--forks 20]
//   [--bin-NAME path/to/bin/smdoctor.js, with tool smdoctor@NAME] [--warmup] [--forks-sweep 20,50,100,200] [--sweep-tools smdoctor] [--tools smdoctor,openssh,ansible] [--out FILE]
//   [--runs-of ansible=1,smdoctor=3: fewer runs for one tool, e.g. Ansible's 1,000-host run takes a quarter of an hour]
import { $, argv, fs, os, path } from 'zx';
import { batchCommand, batchPaths } from '../dist/audit/batch.js';
import { scaleLab, clientCpuOf, linksSince } from './bench-scale-lab.mjs';
import { SSH_OPTS, prepareFloor, runFloor, runSmdoctor, timed } from './bench-scale-runs.mjs';

$.verbose = false;
const root = path.resolve(import.meta.dirname, '..');
const bin = path.join(root, 'bin/smdoctor.js');
const list = (v, d) =>
  String(v ?? d)
    .split(',')
    .filter(Boolean);
const ints = (v, d) => list(v, d).map(Number);
const hostsList = ints(argv.hosts, '100,1000');
const rtts = ints(argv.rtt, '0,50');
const runs = Number(argv.runs ?? 3);
const forks = Number(argv.forks ?? 20);
const sweep = ints(argv['forks-sweep'], '20,50,100,200');
const sweepTools = list(argv['sweep-tools'], 'smdoctor');
const tools = list(argv.tools, 'smdoctor,openssh,ansible');
const runsOf = Object.fromEntries(list(argv['runs-of'], '').map((kv) => [kv.split('=')[0], Number(kv.split('=')[1])]));
const runsFor = (tool) => runsOf[tool] ?? runs;
const out = path.resolve(argv.out ?? path.join(root, '.lab', 'bench-scale.json'));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length ? (s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2) : null;
};
const load = () => os.loadavg()[0];

/** ansible -m shell with pipelining and ControlPersist; the masters' CPU is read from /proc before they are ended. */
async function runAnsible(lab, f, tag) {
  const cp = await fs.mkdtemp(path.join(os.tmpdir(), 'bsa-'));
  const cmd = batchCommand(
    batchPaths({
      engine: 'opensearch',
      searchHome: '{{ search_home }}',
      webHome: '{{ web_home }}',
      searchHomeGiven: true,
      webHomeGiven: true,
    }),
    'SMDOCTOR-ansible',
  );
  const env = {
    ANSIBLE_PIPELINING: 'True',
    ANSIBLE_SSH_ARGS: `-o ControlMaster=auto -o ControlPersist=60s ${SSH_OPTS(lab).slice(2).join(' ')}`,
    ANSIBLE_SSH_CONTROL_PATH_DIR: cp,
    ANSIBLE_HOST_KEY_CHECKING: 'True',
    ANSIBLE_LOCAL_TEMP: path.join(cp, 'tmp'),
    ANSIBLE_NOCOLOR: '1',
    // the same 60 s connect timeout as the floor's ssh: a loaded 2-core machine can take longer than the default 10 s
    ANSIBLE_TIMEOUT: '60',
    ANSIBLE_DEPRECATION_WARNINGS: 'False',
  };
  const t = await timed(
    lab,
    `ansible-${tag}`,
    [
      'ansible',
      'all',
      '-i',
      lab.inventory,
      '-m',
      'shell',
      '-a',
      cmd,
      '-f',
      String(f),
      '-o',
      '-e',
      'ansible_python_interpreter=/usr/bin/python3',
    ],
    env,
  );
  const masters = await clientCpuOf(cp);
  await fs.remove(cp);
  const okHosts = t.r.stdout
    .split('\n')
    .filter((l) => / \| CHANGED \| rc=0 /.test(l) && l.includes('SMDOCTOR-ansible DONE')).length;
  const ok = t.r.exitCode === 0 && okHosts === lab.hosts.length;
  return {
    ...t,
    cpu_ms: t.cpu_ms + masters.cpu_ms,
    control_masters: masters.count,
    ok,
    why: ok ? '' : `exit ${t.r.exitCode}, ${okHosts}/${lab.hosts.length} hosts ${t.r.stderr.slice(-400)}`,
  };
}

const result = {
  date: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length,
    cpu: os.cpus()[0]?.model,
    mem_gib: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
  },
  forks,
  runs,
  runs_of: runsOf,
  cells: [],
  sweep: [],
};
let bad = 0;
const cellOf = (hosts, rtt) => {
  let c = result.cells.find((x) => x.hosts === hosts && x.rtt_ms === rtt);
  if (!c) result.cells.push((c = { hosts, rtt_ms: rtt, runs: Object.fromEntries(tools.map((t) => [t, []])) }));
  return c;
};
const record = (lab, list, what, m, since) => {
  if (!m.ok) {
    bad++;
    console.error(`bench:scale: ${what} failed: ${m.why}`);
  }
  const { r: _r, why: _w, ...fig } = m;
  list.push({ ...fig, links: linksSince(lab, since) });
  console.log(
    `  ${what}: wall ${(m.wall_ms / 1000).toFixed(2)} s, CPU ${(m.cpu_ms / 1000).toFixed(2)} s, RSS ${m.rss_mib} MiB, load ${m.load.map((x) => x.toFixed(1)).join('→')}${m.ok ? '' : ' FAILED'}`,
  );
};
// smdoctor@NAME runs the CLI at --bin-NAME (two builds side by side: a change's before and after)
const runTool = async (lab, floor, tool, f, tag) =>
  tool.startsWith('smdoctor@')
    ? runSmdoctor(lab, f, tag, path.resolve(argv[`bin-${tool.slice(9)}`]))
    : tool === 'smdoctor'
      ? runSmdoctor(lab, f, tag)
      : tool === 'openssh'
        ? runFloor(lab, floor, f, tag)
        : runAnsible(lab, f, tag);

for (const hosts of hostsList) {
  const lab = await scaleLab(root, bin, hosts);
  try {
    const floor = await prepareFloor(lab);
    console.log(
      `lab: ${hosts} hosts in ${lab.clusters.length} clusters (front mode), ${os.cpus().length} cores, load ${load().toFixed(1)}`,
    );
    await lab.setRtt(0);
    // caches, page cache, JIT: not recorded; a 1,000-host warm-up would cost as much as a run, so only small labs get one
    if (argv.warmup ?? hosts <= 100) for (const tool of tools) await runTool(lab, floor, tool, forks, `warm-${hosts}`);
    for (const rtt of rtts) {
      await lab.setRtt(rtt);
      const cell = cellOf(hosts, rtt);
      for (let i = 0; i < runs; i++) {
        // interleaved, and the order turns each run, so a slow spell of the machine falls on every tool
        const order = tools.map((_, k) => tools[(k + i) % tools.length]).filter((tool) => i < runsFor(tool));
        for (const tool of order) {
          const since = lab.mark();
          record(
            lab,
            cell.runs[tool],
            `${hosts} hosts, RTT ${rtt} ms, ${tool} #${i + 1}`,
            await runTool(lab, floor, tool, forks, `${hosts}-${rtt}-${i}`),
            since,
          );
        }
      }
      await fs.outputJson(out, result, { spaces: 2 });
    }
    if (hosts === Math.max(...hostsList) && sweep.length) {
      const rtt = rtts.includes(50) ? 50 : rtts.at(-1);
      await lab.setRtt(rtt);
      for (const f of sweep) {
        for (const tool of sweepTools) {
          const since = lab.mark();
          const row = { hosts, rtt_ms: rtt, forks: f, tool, runs: [] };
          result.sweep.push(row);
          record(
            lab,
            row.runs,
            `sweep ${hosts} hosts, RTT ${rtt} ms, --forks ${f}, ${tool}`,
            await runTool(lab, floor, tool, f, `sweep-${f}`),
            since,
          );
        }
        await fs.outputJson(out, result, { spaces: 2 });
      }
    }
  } finally {
    await lab.down();
  }
}

// the table: medians per cell; ratios of medians; CPU per host
console.log('\nhosts  RTT  tool      wall(med)  CPU/host  peak RSS  ratio to floor');
for (const c of result.cells) {
  const med = (t, k) => median(c.runs[t]?.map((r) => r[k]) ?? []);
  c.median = Object.fromEntries(
    tools.map((t) => [
      t,
      { wall_ms: med(t, 'wall_ms'), cpu_ms_per_host: med(t, 'cpu_ms') / c.hosts, rss_mib: med(t, 'rss_mib') },
    ]),
  );
  for (const t of tools) {
    const m = c.median[t];
    const floorWall = c.median.openssh?.wall_ms;
    console.log(
      `${String(c.hosts).padStart(5)} ${String(c.rtt_ms).padStart(4)}  ${t.padEnd(9)} ${(m.wall_ms / 1000).toFixed(2).padStart(8)} s ${m.cpu_ms_per_host.toFixed(1).padStart(7)} ms ${String(m.rss_mib).padStart(6)} MiB  ${floorWall ? (m.wall_ms / floorWall).toFixed(2) : '-'}`,
    );
  }
}
await fs.outputJson(out, result, { spaces: 2 });
console.log(`figures written to ${path.relative(process.cwd(), out) || out}`);
if (bad) process.exitCode = 1;
