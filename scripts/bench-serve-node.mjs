// The nodes' side of `npm run bench:serve`: the lab's own CPU (front, daemon, every sshd and what they ran), the
// processes started on the nodes (perf's exec and fork tracepoints in a cgroup holding the lab, when this machine
// allows it) and the SSH sessions the nodes' sshd logged, by kind.
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { fs, path } from 'zx';
import { pidsWith } from './bench-scale-lab.mjs';

const CLK_TCK = 100;
const CGROUP2 = '/sys/fs/cgroup/unified';

/** Every process on the machine: its parent and its CPU, own and of its reaped children. */
function processTable() {
  const table = new Map();
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // after the name: ppid is field 4 (index 1), utime..cstime fields 14..17 (indexes 11..14)
      const ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
      table.set(Number(p), { ppid: Number(f[1]), cpu_ms: (ticks * 1000) / CLK_TCK });
    } catch {
      /* gone meanwhile */
    }
  }
  return table;
}

/** The lab's processes (those naming its folder) and all their descendants. */
function labTree(table, roots) {
  const children = new Map();
  for (const [pid, p] of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  const seen = new Set();
  const todo = [...roots];
  while (todo.length) {
    const pid = todo.pop();
    if (seen.has(pid) || !table.has(pid)) continue;
    seen.add(pid);
    todo.push(...(children.get(pid) ?? []));
  }
  return seen;
}

/**
 * The lab's CPU so far, in ms: each live process of its tree, own and reaped children's time (a child's time moves
 * to its parent's when it is reaped, so nothing is counted twice).
 */
export async function labCpuMs(lab) {
  const table = processTable();
  const tree = labTree(table, await pidsWith(lab.dir));
  let ms = 0;
  for (const pid of tree) ms += table.get(pid).cpu_ms;
  return Math.round(ms);
}

/** sshd at LogLevel VERBOSE logs each session it starts ("Starting session: command for root…"). */
export async function verboseSshd(lab) {
  const nodes = path.join(lab.dir, 'nodes');
  for (const name of await fs.readdir(nodes)) {
    const file = path.join(nodes, name, 'sshd', 'sshd_config');
    if (!fs.existsSync(file)) continue;
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace(/^LogLevel .*$/m, 'LogLevel VERBOSE'));
  }
  const log = path.join(lab.dir, 'front', 'sshd.log');
  const mark = () => (fs.existsSync(log) ? statSync(log).size : 0);
  /** The sessions started since `from` (a mark()), by kind: command, subsystem 'sftp', shell. */
  const sessionsSince = (from) => {
    const text = fs.existsSync(log) ? readFileSync(log, 'latin1').slice(from) : '';
    const by = {};
    for (const m of text.matchAll(/Starting session: (command|subsystem '[^']*'|shell|forced-command[^ ]*) /g))
      by[m[1]] = (by[m[1]] ?? 0) + 1;
    return by;
  };
  return { mark, sessionsSince };
}

/**
 * A cgroup (v2) holding the lab's processes, so that perf counts only what starts under them. Null where this
 * machine has no writable cgroup2 or no perf (then only the sshd log's sessions are counted).
 */
export async function labCgroup(lab) {
  if (!fs.existsSync(path.join(CGROUP2, 'cgroup.procs'))) return null;
  const perf = await new Promise((r) => {
    const p = spawn('perf', ['--version'], { stdio: 'ignore' });
    p.once('error', () => r(false));
    p.once('exit', (code) => r(code === 0));
  });
  if (!perf) return null;
  const name = `smdoctor-bench-${process.pid}`;
  const dir = path.join(CGROUP2, name);
  try {
    await fs.mkdir(dir);
    const table = processTable();
    for (const pid of labTree(table, await pidsWith(lab.dir)))
      await fs.writeFile(path.join(dir, 'cgroup.procs'), `${pid}\n`).catch(() => undefined);
  } catch (e) {
    console.error(`bench:serve: no cgroup for the lab (${e.message}); counting sessions only`);
    await fs.rmdir(dir).catch(() => undefined);
    return null;
  }
  // an interrupted run (Ctrl-C: the lab is taken down, then the script exits) leaves neither perf nor the cgroup
  const running = new Set();
  process.once('exit', () => {
    for (const p of running) p.kill('SIGINT');
    try {
      rmdirSync(dir);
    } catch {
      /* processes still in it, or gone already */
    }
  });
  /** perf counting execs and new tasks in the cgroup until the returned stop() (which resolves to the counts). */
  const count = () => {
    const events = 'sched:sched_process_exec,task:task_newtask';
    const p = spawn('perf', ['stat', '-a', '-x', ',', '-e', events, '-G', `${name},${name}`], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    running.add(p);
    const done = new Promise((r) => p.once('exit', r)).finally(() => running.delete(p));
    return async () => {
      p.kill('SIGINT');
      await done;
      const n = (ev) => {
        const line = err.split('\n').find((l) => l.includes(`,${ev},`));
        return line ? Number(line.split(',')[0]) : null;
      };
      return { execs: n('sched:sched_process_exec'), forks: n('task:task_newtask') };
    };
  };
  // perf needs a moment to open its counters on every CPU
  const started = async () => {
    const stop = count();
    await new Promise((r) => setTimeout(r, 500));
    return stop;
  };
  const remove = async () => {
    for (let i = 0; i < 50 && fs.existsSync(dir); i++) {
      await fs.rmdir(dir).catch(() => undefined);
      if (fs.existsSync(dir)) await new Promise((r) => setTimeout(r, 100));
    }
  };
  return { name, count: started, remove };
}
