// bench:serve's change on a host (how many cycles until /metrics shows it) and its targets, each passed or not.
import { performance } from 'node:perf_hooks';
import { fs, path } from 'zx';

/** The healthy cluster's web host (its <engine>_dashboards.yml) and one of its masters, in the fleet lab. */
async function webOfC1(lab) {
  for (const h of lab.hosts.filter((x) => x.name.startsWith('c1-'))) {
    const dir = h.webConfigDir;
    const yml = dir && (await fs.readdir(dir).catch(() => [])).find((f) => f.endsWith('_dashboards.yml'));
    if (yml) return { file: path.join(dir, yml), master: lab.hosts.find((x) => x.name === 'c1-m1') };
  }
  return null;
}

const FAILING = /^smdoctor_check_status\{cluster="c1",[^}]*check="dashboards-hosts",status="fail"\} (\d)$/m;

async function failingNow(url) {
  const r = await fetch(`${url}/metrics`);
  const m = FAILING.exec(await r.text());
  return m ? m[1] === '1' : null;
}

/** Cycles that end until /metrics says `want`; counted from the first cycle that started after `t0`. */
async function until(serve, url, want, t0, max = 10) {
  let after = 0;
  for (let i = 0; i < max; i++) {
    const c = await serve.next();
    if (c.at - c.seconds * 1000 >= t0) after++;
    if ((await failingNow(url)) === want)
      return { cycles_after_change: after, seconds: Math.round(c.at - t0) / 1000, shown_at_cycle: c.n };
  }
  return { cycles_after_change: null, seconds: null };
}

/**
 * A change on one host, and back: the healthy cluster's web host gets one of its masters in `<engine>.hosts`
 * (check dashboards-hosts fails), then its file as it was. Made just after a cycle ended, so the next cycle to
 * start is the first that can see it.
 */
export async function changeOnHost(lab, serve) {
  const url = await serve.url();
  const web = await webOfC1(lab);
  if (!web?.master) return { skipped: 'no web host in cluster c1' };
  await serve.next();
  if ((await failingNow(url)) !== false) return { skipped: 'dashboards-hosts of c1 is not passing before the change' };
  const before = await fs.readFile(web.file, 'utf8');
  const changed = before.replace(/^(\w+\.hosts:\n(?: {2}- .*\n)+)/m, `$1  - "https://${web.master.ip}:9200"\n`);
  if (changed === before) return { skipped: `no hosts list in ${web.file}` };
  let t0 = performance.now();
  await fs.writeFile(web.file, changed);
  const shown = await until(serve, url, true, t0);
  t0 = performance.now();
  await fs.writeFile(web.file, before);
  const back = await until(serve, url, false, t0);
  return { host: path.relative(lab.dir, web.file), shown, back };
}

const verdict = (ok) => (ok === null ? 'not measured' : ok ? 'PASS' : 'FAIL');

/** The targets for one cell's figures; each { target, figure, verdict }. */
export function targets(cell) {
  const s = cell.serve ?? {};
  const at = `${cell.hosts} hosts × ${cell.rtt_ms} ms`;
  const rows = [];
  const add = (target, figure, ok) => rows.push({ target, at, figure, verdict: verdict(ok) });
  const known = (x) => x !== undefined && x !== null;
  add(
    'steady cycle ≤ 2 s',
    known(s.wall_s_median) ? `${s.wall_s_median} s` : '-',
    known(s.wall_s_median) ? s.wall_s_median <= 2 : null,
  );
  add(
    'client CPU ≤ 0.5 ms per unchanged host per cycle',
    known(s.cpu_ms_per_host_cycle) ? `${s.cpu_ms_per_host_cycle} ms (lab: ${s.lab_cpu_ms_per_host_cycle} ms)` : '-',
    known(s.cpu_ms_per_host_cycle) ? s.cpu_ms_per_host_cycle <= 0.5 : null,
  );
  const p = s.node_processes;
  const started = p?.perf ? p.perf.forks_per_cycle : p?.command_sessions_per_cycle;
  add(
    'no process started on the nodes per steady cycle',
    p ? `${started} per cycle (${p.perf ? 'perf: new tasks' : 'sshd log: command sessions'})` : '-',
    known(started) ? started === 0 : null,
  );
  const ch = s.change;
  add(
    'a change shows in /metrics within one cycle',
    ch?.shown
      ? `cycle ${ch.shown.cycles_after_change} after the edit (back: ${ch.back.cycles_after_change})`
      : (ch?.skipped ?? '-'),
    ch?.shown ? [ch.shown, ch.back].every((x) => x.cycles_after_change !== null && x.cycles_after_change <= 1) : null,
  );
  const r = s.rss;
  add(
    'RSS within 10 % from cycle 100 to 1,000',
    r?.growth_100_to_end !== undefined ? `${r.growth_100_to_end} % (cycle 100 to ${r.end_cycle})` : '-',
    r?.growth_100_to_end !== undefined && r.end_cycle >= 1000 ? Math.abs(r.growth_100_to_end) <= 10 : null,
  );
  return rows;
}
