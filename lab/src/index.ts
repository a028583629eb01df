import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from './model.ts';
import { loadScenario } from './scenario.ts';
import { buildLab, startSshds, writeInventory } from './build.ts';
import { startServices } from './services.ts';
import type { SshdHandle } from './sshd.ts';

export { loadScenario, scenarioNames } from './scenario.ts';
export { parseScenario } from './scenario-parse.ts';
export { fleetScenario } from './fleet.ts';
export { labUp, labDown, labStatus, type LabStatus, type LabUpOptions } from './lifecycle.ts';
export { writeLabRepo } from './repo.ts';
export { setFrontDown } from './front/down.ts';

export interface LabNode {
  name: string;
  address: string;
  sshPort: number;
  /** https://<address>:9200 (a web-only host serves no API, but the URL is still its would-be address). */
  apiUrl: string;
  searchHome: string;
  webHome: string;
  /** Roles written into its <engine>.yml at build time; empty for a web-only host. */
  roles: string[];
}

export interface Lab {
  dir: string;
  inventoryPath: string;
  password: string;
  caFile: string;
  keyFile: string;
  knownHostsFile: string;
  nodes: LabNode[];
  stop(): Promise<void>;
}

export interface StartLabOptions {
  scenario: string | Scenario;
  /** Default: a fresh temp dir, removed by stop(). */
  dir?: string;
  restartDelayMs?: number;
  toolDelayMs?: number;
  delayedTimeoutMs?: number;
  recoveryDelayMs?: number;
  /** How long a new replica initializes (default 0: at once). */
  newCopyDelayMs?: number;
  /** The nodes' sshd LogLevel (default ERROR): VERBOSE or DEBUG1 log each session's exec and subsystem requests. */
  sshdLogLevel?: string;
}

/** The lab in this process: sshd children, API servers and control socket here, no daemon. */
export async function startLab(opts: StartLabOptions): Promise<Lab> {
  const scenario = typeof opts.scenario === 'string' ? loadScenario(opts.scenario) : opts.scenario;
  const ownDir = opts.dir === undefined;
  const dir = opts.dir ?? (await mkdtemp(join(tmpdir(), 'smdoctor-lab-')));
  let sshds: SshdHandle[] = [];
  try {
    const { layout, password, tls } = await buildLab(scenario, dir, {
      restartDelayMs: opts.restartDelayMs,
      toolDelayMs: opts.toolDelayMs ?? 0,
      delayedTimeoutMs: opts.delayedTimeoutMs,
      recoveryDelayMs: opts.recoveryDelayMs,
      newCopyDelayMs: opts.newCopyDelayMs,
    });
    sshds = await startSshds(layout, false, opts.sshdLogLevel);
    const services = await startServices(layout, password, tls, opts.restartDelayMs);
    await writeInventory(layout);
    let stopped = false;
    return {
      dir: layout.dir,
      inventoryPath: layout.inventoryPath,
      password,
      caFile: layout.caFile,
      keyFile: layout.sshKeyFile,
      knownHostsFile: layout.knownHostsFile,
      nodes: layout.hosts.map((h) => ({
        name: h.name,
        address: h.ip,
        sshPort: h.sshPort,
        apiUrl: `https://${h.ip}:9200`,
        searchHome: h.searchHome,
        webHome: h.webHome,
        roles: [...h.roles],
      })),
      async stop() {
        if (stopped) return;
        stopped = true;
        await services.stop();
        await Promise.all(sshds.map((s) => s.stop()));
        if (ownDir) await rm(layout.dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    await Promise.all(sshds.map((s) => s.stop()));
    if (ownDir) await rm(dir, { recursive: true, force: true });
    throw err;
  }
}
