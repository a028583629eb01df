import { readFile, rm, open, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';
import { UsageError, SmdoctorError } from 'smdoctor';
import type { Scenario } from './model.ts';
import { loadScenario } from './scenario.ts';
import { readLayout, layoutFile, type LabLayout } from './layout.ts';
import { buildLab, startSshds, writeInventory } from './build.ts';
import { controlRequest } from './control.ts';
import { stopPid } from './sshd.ts';
import { daemonPidFile } from './default.ts';
import type { LabRuntime } from './runtime.ts';
import { hostCount } from './layout.ts';
import { planNet, createNet, destroyNet } from './netns.ts';
import { inNetns } from './netns-exec.ts';
import { bastionOf } from './bastion.ts';
import { frontChoice, FRONT_PORTS } from './front/config.ts';
import { allocateAddresses } from './front/addresses.ts';
import { startFront } from './front/start.ts';

export type LabStatus = ReturnType<LabRuntime['status']>;

const LAB_PACKAGE = fileURLToPath(new URL('../', import.meta.url));
// built (dist/*.js) the daemon is plain JavaScript; run from the sources (tests, tsx) it needs tsx's loader, and
// smdoctor's sources too (the `smdoctor-source` export condition), so one copy of each module runs
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const DAEMON = fileURLToPath(new URL(FROM_SOURCE ? './daemon.ts' : './daemon.js', import.meta.url));
const DAEMON_ARGS = FROM_SOURCE
  ? ['--conditions=smdoctor-source', '--import', import.meta.resolve('tsx'), DAEMON]
  : [DAEMON];

interface LabProcess {
  what: string;
  pidFile: string;
  marker: string;
}

/** The processes `lab up` starts, each with a string its command line must hold (guards against pid reuse). */
function processesOf(layout: LabLayout): LabProcess[] {
  return [
    { what: 'daemon', pidFile: daemonPidFile(layout.dir), marker: DAEMON },
    ...layout.hosts.map((h) => {
      const d = join(layout.dir, 'nodes', h.name, 'sshd');
      return { what: `sshd ${h.name}`, pidFile: join(d, 'sshd.pid'), marker: join(d, 'sshd_config') };
    }),
    ...(layout.bastion
      ? [
          {
            what: 'sshd bastion',
            pidFile: join(layout.bastion.dir, 'sshd.pid'),
            marker: join(layout.bastion.dir, 'sshd_config'),
          },
        ]
      : []),
    ...(layout.front ? [{ what: 'front', pidFile: layout.front.pidFile, marker: layout.front.marker }] : []),
  ];
}

async function livePid(p: LabProcess): Promise<number | null> {
  const pid = Number((await readFile(p.pidFile, 'utf8').catch(() => '')).trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const cmd = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  return cmd.split('\0').join(' ').includes(p.marker) ? pid : null;
}

async function liveProcesses(dir: string): Promise<Array<{ p: LabProcess; pid: number }>> {
  if (!existsSync(layoutFile(dir))) return [];
  const l = await readLayout(dir).catch(() => null);
  if (!l) return [];
  const found = await Promise.all(processesOf(l).map(async (p) => ({ p, pid: await livePid(p) })));
  return found.filter((x): x is { p: LabProcess; pid: number } => x.pid !== null);
}

export interface LabUpOptions {
  dir?: string;
  scenario?: string | Scenario;
  env?: NodeJS.ProcessEnv;
  restartDelayMs?: number;
  toolDelayMs?: number;
  delayedTimeoutMs?: number;
  recoveryDelayMs?: number;
  newCopyDelayMs?: number;
  startTimeoutMs?: number;
  /** The same cluster in a network namespace, reachable only through a jump host in another (root only). */
  bastion?: boolean;
}

/** `smdoctor lab up`: trees, detached sshds and the daemon; resolves once every node answers. */
export async function labUp(
  opts: LabUpOptions = {},
): Promise<{ layout: LabLayout; inventoryPath: string; status: LabStatus }> {
  const dir = resolve(opts.dir ?? '.lab');
  if ((await liveProcesses(dir)).length)
    throw new UsageError(`lab already up in ${dir}: run smdoctor lab down --dir ${dir}`);
  const scenario =
    typeof opts.scenario === 'object' ? opts.scenario : loadScenario(opts.scenario ?? 'broken', opts.env);
  // a lab that crashed may have left its namespaces behind
  await destroyNet(dir);
  try {
    let net = null;
    const front = frontChoice(opts.env ?? process.env, hostCount(scenario));
    if (front.front && opts.bastion) throw new UsageError('lab up --bastion has no large-fleet mode (front)');
    if (opts.bastion) {
      await mkdir(dir, { recursive: true });
      net = await planNet(hostCount(scenario));
      await createNet(dir, net);
    }
    const { layout } = await buildLab(scenario, dir, {
      ...opts,
      addresses:
        net?.nodeAddrs ?? (front.front ? await allocateAddresses(hostCount(scenario), FRONT_PORTS) : undefined),
      bastion: net ? bastionOf(dir, net) : undefined,
    });
    if (front.front) await startFront(layout, front.rttMs);
    else await startSshds(layout, true);
    await spawnDaemon(layout);
    const status = await waitForDaemon(layout, opts.startTimeoutMs ?? 60_000);
    await writeInventory(layout);
    return { layout, inventoryPath: layout.inventoryPath, status };
  } catch (err) {
    await labDown(dir);
    throw err;
  }
}

async function spawnDaemon(layout: LabLayout): Promise<void> {
  await mkdir(join(layout.dir, 'run'), { recursive: true });
  const log = await open(join(layout.dir, 'daemon.log'), 'a');
  const node: [string, string[]] = [process.execPath, [...DAEMON_ARGS, layout.dir]];
  // in the fleet namespace the API listens on the nodes' addresses; ip netns exec keeps the pid
  const [cmd, args] = layout.bastion ? inNetns(layout.bastion.fleetNetns, ...node) : node;
  const child = spawn(cmd, args, {
    cwd: LAB_PACKAGE,
    detached: true,
    stdio: ['ignore', log.fd, log.fd],
  });
  await log.close();
  child.unref();
}

async function waitForDaemon(layout: LabLayout, timeoutMs: number): Promise<LabStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await controlRequest(layout.controlSocket, 'GET', '/status', 2000);
    if (r?.status === 200) return JSON.parse(r.body) as LabStatus;
    if (Date.now() > deadline) {
      const tail = (await readFile(join(layout.dir, 'daemon.log'), 'utf8').catch(() => ''))
        .split('\n')
        .slice(-8)
        .join('\n');
      throw new SmdoctorError(
        'INTERNAL',
        `lab daemon did not answer within ${timeoutMs} ms; ${join(layout.dir, 'daemon.log')} ends:\n${tail}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `smdoctor lab down`: stops exactly the processes lab up started, removes its namespaces; leaves the trees. Idempotent. */
export async function labDown(dirIn = '.lab'): Promise<{ stopped: string[]; netRemoved: boolean }> {
  const dir = resolve(dirIn);
  const live = await liveProcesses(dir);
  // the daemon first, so no API answers for a node whose sshd is gone; then every sshd at once
  const isDaemon = (x: { p: LabProcess }) => x.p.marker === DAEMON;
  await Promise.all(live.filter(isDaemon).map(({ pid }) => stopPid(pid)));
  await Promise.all(live.filter((x) => !isDaemon(x)).map(({ pid }) => stopPid(pid)));
  const l = existsSync(layoutFile(dir)) ? await readLayout(dir).catch(() => null) : null;
  if (l) {
    for (const p of processesOf(l)) await rm(p.pidFile, { force: true });
    await rm(l.controlSocket, { force: true });
  }
  // then whatever is left in the namespaces (a crashed daemon's orphans), the namespaces, veths and route
  const netRemoved = await destroyNet(dir);
  return { stopped: live.map((x) => x.p.what), netRemoved };
}

/** `smdoctor lab status`: the daemon's view, or null when the lab is not up. */
export async function labStatus(dirIn = '.lab'): Promise<LabStatus | null> {
  const dir = resolve(dirIn);
  if (!existsSync(layoutFile(dir))) return null;
  const l = await readLayout(dir);
  const r = await controlRequest(l.controlSocket, 'GET', '/status');
  return r?.status === 200 ? (JSON.parse(r.body) as LabStatus) : null;
}
