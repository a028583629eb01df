import { readFile, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { resolvePlaceholders } from 'smdoctor';
import type { Scenario, ScenarioNode } from './model.ts';
import { clustersOf } from './scenario-parse.ts';

export const SSH_PORT = 2222;
export const API_PORT = 9200;
export const DEFAULT_RESTART_DELAY_MS = 500;

/** One machine of the lab: an engine node, a web host, or both. */
/** A node's roles as it starts with them: a quoted `'${VAR}'` of the scenario resolved from its environment. */
const loadedRoles = (n: ScenarioNode): string[] =>
  n.roles.map((r) => {
    const v = resolvePlaceholders(r.replace(/^'(.*)'$/, '$1'), n.env ?? {});
    return v.state === 'value' ? v.value : r;
  });

export interface LabHost {
  name: string;
  cluster: string;
  ip: string;
  sshPort: number;
  /** Roles the scenario wrote into its <engine>.yml; empty for a web-only host. */
  roles: string[];
  engineNode: boolean;
  webHost: boolean;
  searchHome: string;
  webHome: string;
  /** Where <engine>.yml, the keystore, jvm.options and certificates are: `{searchHome}/config`, or etc/<engine>. */
  engineConfigDir: string;
  webConfigDir: string;
  /** A packages layout: who tells where its folders are (the inventory, or only the processes). */
  packaged?: 'process' | 'inventory';
  /** The engine's environment (scenario `env`): a stand-in engine process carries it while the node is up. */
  engineEnv?: Record<string, string>;
  /** The web application's environment: a stand-in web process carries it while the host is up (packages layout). */
  webEnv?: Record<string, string>;
}

export interface LabCluster {
  name: string;
  apiUrl: string;
  /** Engine nodes, in scenario order (the first up manager is elected). */
  nodes: string[];
  webHosts: string[];
  /** The OpenSearch release the API answers as. */
  version?: string;
  /** `read`: the API user is refused every write. */
  apiAccess?: 'read' | 'all';
}

/** Everything a lab process needs to run a lab dir; saved as <dir>/lab.json. */
export interface LabLayout {
  dir: string;
  engine: string;
  scenario: string;
  clusters: LabCluster[];
  hosts: LabHost[];
  controlSocket: string;
  passwordFile: string;
  caFile: string;
  tlsKeyFile: string;
  tlsCertFile: string;
  sshKeyFile: string;
  knownHostsFile: string;
  inventoryPath: string;
  restartDelayFile: string;
  toolDelayFile: string;
  /** lab up --bastion: the jump host, in its own network namespace, and the nodes' namespace. */
  bastion?: LabBastion;
  /** Large-fleet mode (src/lab/front): one process holds every host's SSH and API address; the API listens behind it. */
  front?: { pidFile: string; marker: string; apiListenPort: number };
}

export interface LabBastion {
  ip: string;
  sshPort: number;
  /** The dmz namespace (the bastion's sshd) and the fleet namespace (the nodes' sshds and the lab daemon). */
  netns: string;
  fleetNetns: string;
  dir: string;
  /** The ssh_config the inventory names: the bastion's Host block and ProxyJump for the fleet. */
  sshConfigFile: string;
}

/** Unix socket paths are limited to ~107 bytes: long lab dirs get one under the temp dir. */
export function controlSocketPath(dir: string): string {
  const p = join(dir, 'control.sock');
  return p.length < 100
    ? p
    : join(tmpdir(), `smdoctor-lab-${createHash('sha256').update(dir).digest('hex').slice(0, 12)}.sock`);
}

export function planLayout(scenario: Scenario, dirIn: string, ips: string[]): LabLayout {
  const dir = resolve(dirIn);
  const engine = scenario.engine ?? 'opensearch';
  const hosts: LabHost[] = [];
  const clusters: LabCluster[] = [];
  const packages = scenario.layout === 'packages';
  const host = (name: string, cluster: string, roles: string[], engineNode: boolean, webHost: boolean): LabHost => {
    const root = join(dir, 'nodes', name);
    // the packages' folders under the host's own root: program in usr/share, config in etc
    const [home, web] = packages
      ? [join(root, 'usr', 'share', engine), join(root, 'usr', 'share', `${engine}-dashboards`)]
      : [join(root, 'app', engine), join(root, 'app', `${engine}-dashboards`)];
    const h: LabHost = {
      name,
      cluster,
      ip: ips[hosts.length]!,
      sshPort: SSH_PORT,
      roles,
      engineNode,
      webHost,
      searchHome: home,
      webHome: web,
      engineConfigDir: packages ? join(root, 'etc', engine) : join(home, 'config'),
      webConfigDir: packages ? join(root, 'etc', `${engine}-dashboards`) : join(web, 'config'),
    };
    hosts.push(h);
    return h;
  };
  const confVar = engine === 'elasticsearch' ? 'ES_PATH_CONF' : 'OPENSEARCH_PATH_CONF';
  const webConfVar = engine === 'elasticsearch' ? 'KBN_PATH_CONF' : 'OSD_PATH_CONF';
  for (const c of clustersOf(scenario)) {
    const name = c.cluster_name ?? c.name;
    const nodes = c.nodes.map((n) => {
      const h = host(n.name, name, loadedRoles(n), true, n.dashboards_hosts !== undefined);
      if (n.env) h.engineEnv = { ...n.env };
      if (packages) {
        h.packaged = n.told_by ?? 'process';
        // as the package's service starts it; a node the inventory describes names no config folder
        h.engineEnv = { ...n.env, ...(h.packaged === 'process' ? { [confVar]: h.engineConfigDir } : {}) };
        if (h.webHost) h.webEnv = { [webConfVar]: h.webConfigDir };
      }
      return h;
    });
    const webs = (c.dashboards ?? []).map((d) => {
      const h = host(d.name, name, [], false, true);
      if (packages) Object.assign(h, { packaged: 'process', webEnv: { [webConfVar]: h.webConfigDir } });
      return h;
    });
    const data = nodes.find((n) => n.roles.includes('data')) ?? nodes[0]!;
    clusters.push({
      name,
      apiUrl: `https://${data.ip}:${API_PORT}`,
      nodes: nodes.map((n) => n.name),
      webHosts: [...nodes.filter((n) => n.webHost), ...webs].map((n) => n.name),
      ...((c.version ?? scenario.version) ? { version: c.version ?? scenario.version } : {}),
      ...((c.api_access ?? scenario.api_access) ? { apiAccess: c.api_access ?? scenario.api_access } : {}),
    });
  }
  return {
    dir,
    engine,
    scenario: scenario.name,
    clusters,
    hosts,
    controlSocket: controlSocketPath(dir),
    passwordFile: join(dir, 'api-password'),
    caFile: join(dir, 'tls', 'ca.pem'),
    tlsKeyFile: join(dir, 'tls', 'node-key.pem'),
    tlsCertFile: join(dir, 'tls', 'node-cert.pem'),
    sshKeyFile: join(dir, 'ssh', 'id_ed25519'),
    knownHostsFile: join(dir, 'ssh', 'known_hosts'),
    inventoryPath: join(dir, 'inventory.yml'),
    restartDelayFile: join(dir, 'restart-delay-ms'),
    toolDelayFile: join(dir, 'tool-delay-ms'),
  };
}

/** Number of loopback addresses a scenario needs (one per host). */
export function hostCount(scenario: Scenario): number {
  return clustersOf(scenario).reduce((n, c) => n + c.nodes.length + (c.dashboards?.length ?? 0), 0);
}

export const layoutFile = (dir: string) => join(resolve(dir), 'lab.json');

export async function saveLayout(layout: LabLayout): Promise<void> {
  await writeFile(layoutFile(layout.dir), `${JSON.stringify(layout, null, 2)}\n`);
}

export async function readLayout(dir: string): Promise<LabLayout> {
  return JSON.parse(await readFile(layoutFile(dir), 'utf8')) as LabLayout;
}

/** Reads a millisecond delay file; missing or bad → fallback. */
export async function readDelay(file: string, fallback: number): Promise<number> {
  const text = (await readFile(file, 'utf8').catch(() => '')).trim();
  const n = Number(text);
  return text !== '' && Number.isFinite(n) && n >= 0 ? n : fallback;
}
