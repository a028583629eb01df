import type { ChildProcess } from 'node:child_process';
import { startEngineProcess, startWebProcess, stopEngineProcess } from './engine-process.ts';
import type { Server } from 'node:https';
import type { Socket } from 'node:net';
import { existsSync } from 'node:fs';
import { appendFile, mkdir } from 'node:fs/promises';
import { noElectionFile } from './timing.ts';
import { join } from 'node:path';
import type { ClusterView, IndexStoreLike, NodeRuntime } from './model.ts';
import { API_PORT, DEFAULT_RESTART_DELAY_MS, readDelay, type LabHost, type LabLayout } from './layout.ts';
import { loadDashboardsHosts, loadEngineFiles } from './nodefiles.ts';
import { applyAfterStart, readNodeState, startedSecondsAgo, writeProcess } from './nodefacts.ts';

export interface WebRuntime {
  name: string;
  ip: string;
  /** `<engine>.hosts` as the web service loaded it. */
  hosts: string[];
  state: 'up' | 'restarting' | 'down';
  reason?: string;
}

export interface RestartResult {
  /** 200 started, 404 no such unit/node, 500 refused to start (systemctl's "Job … failed"). */
  status: 200 | 404 | 500;
  message: string;
}

export interface RuntimeDeps {
  /** A fresh, not yet listening API server for one node (createApiServer). */
  createServer(view: ClusterView, nodeName: string): Server;
  stores: Map<string, IndexStoreLike>;
  /** Used when <dir>/restart-delay-ms is absent. */
  restartDelayMs?: number;
}

class ClusterRuntime implements ClusterView {
  readonly runtimes = new Map<string, NodeRuntime>();
  readonly servers = new Map<string, { server: Server; sockets: Set<Socket> }>();
  /** TCP connections the nodes' API listeners accepted since the lab started: a client that keeps its own counts once. */
  apiConnections = 0;
  readonly web = new Map<string, WebRuntime>();
  /** The elected manager stays elected while it is up, as the engine's does: no needless election. */
  private elected: string | null = null;
  readonly clusterName: string;
  readonly store: IndexStoreLike;
  readonly order: string[];
  readonly version: string | undefined;
  readonly apiAccess: 'read' | 'all' | undefined;
  private readonly noElection: () => boolean;
  constructor(
    clusterName: string,
    store: IndexStoreLike,
    order: string[],
    version: string | undefined,
    apiAccess: 'read' | 'all' | undefined,
    noElection: () => boolean = () => false,
  ) {
    this.clusterName = clusterName;
    this.store = store;
    this.order = order;
    this.version = version;
    this.apiAccess = apiAccess;
    this.noElection = noElection;
  }
  nodes(): NodeRuntime[] {
    return this.order.map((n) => this.runtimes.get(n)!);
  }
  electedManager(): string | null {
    // a cluster that cannot elect (lost quorum, split voting configuration): no manager, whoever is up
    if (this.noElection()) return (this.elected = null);
    const eligible = this.nodes().filter(
      (n) => n.state === 'up' && (n.roles.includes('cluster_manager') || n.roles.includes('master')),
    );
    if (!eligible.some((n) => n.name === this.elected)) this.elected = eligible[0]?.name ?? null;
    return this.elected;
  }
  reallocate(): void {
    this.store.reallocate(
      this.nodes()
        .filter((n) => n.state === 'up' && n.roles.includes('data'))
        .map((n) => n.name)
        .sort(),
    );
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The running lab: node states loaded from files, API listeners, restarts. Socket-free apart from listen/close. */
export class LabRuntime {
  private clusters = new Map<string, ClusterRuntime>();
  /** The stand-in engine processes of the nodes that are up and have an environment. */
  private engines = new Map<string, ChildProcess>();
  private hosts: Map<string, LabHost>;
  readonly layout: LabLayout;
  private deps: RuntimeDeps;
  constructor(layout: LabLayout, deps: RuntimeDeps) {
    this.layout = layout;
    this.deps = deps;
    this.hosts = new Map(layout.hosts.map((h) => [h.name, h]));
    for (const c of layout.clusters) {
      const store = deps.stores.get(c.name);
      if (!store) throw new Error(`no index store for cluster ${c.name}`);
      this.clusters.set(
        c.name,
        new ClusterRuntime(c.name, store, c.nodes, c.version, c.apiAccess, () =>
          existsSync(noElectionFile(layout.dir)),
        ),
      );
    }
  }

  /** Starts every node and web service from its files; nodes that refuse stay down. */
  async start(): Promise<void> {
    for (const h of this.layout.hosts) {
      const c = this.clusters.get(h.cluster)!;
      if (h.engineNode)
        c.runtimes.set(h.name, {
          name: h.name,
          ip: h.ip,
          roles: [],
          attrs: {},
          plugins: [],
          state: 'down',
          reason: 'not started',
        });
      if (h.webHost) c.web.set(h.name, { name: h.name, ip: h.ip, hosts: [], state: 'down', reason: 'not started' });
    }
    await Promise.all(
      this.layout.hosts.map(async (h) => {
        if (h.engineNode) await this.bootEngine(h);
        if (h.webHost) await this.bootWeb(h);
      }),
    );
    for (const c of this.clusters.values()) {
      c.electedManager();
      c.reallocate();
    }
  }

  async stop(): Promise<void> {
    await Promise.all(
      [...this.clusters.values()].flatMap((c) => [...c.servers.keys()].map((n) => this.closeApi(c, n))),
    );
    await Promise.all([...this.engines.keys()].map((n) => this.stopEngine(n)));
  }

  private async stopEngine(name: string): Promise<void> {
    const p = this.engines.get(name);
    this.engines.delete(name);
    if (p) await stopEngineProcess(p);
  }

  /** `systemctl restart <service>` on one host: out of the cluster for the delay, then a fresh start from files. */
  async restart(node: string, service: string): Promise<RestartResult> {
    const h = this.hosts.get(node);
    const { engine } = this.layout;
    if (!h) return { status: 404, message: `labctl: no host ${node} in this lab` };
    const unit = `${service}.service`;
    const isEngine = service === engine && h.engineNode;
    const isWeb = service === `${engine}-dashboards` && h.webHost;
    if (!isEngine && !isWeb) return { status: 404, message: `Failed to restart ${unit}: Unit ${unit} not found.` };
    const c = this.clusters.get(h.cluster)!;
    const delay = await readDelay(this.layout.restartDelayFile, this.deps.restartDelayMs ?? DEFAULT_RESTART_DELAY_MS);
    if (isEngine) {
      const rt = c.runtimes.get(node)!;
      rt.state = 'restarting';
      delete rt.reason;
      await this.closeApi(c, node);
      await this.stopEngine(node);
      // the others notice at once: a new manager is elected if this one was
      c.electedManager();
      c.reallocate();
      await sleep(delay);
      await this.bootEngine(h);
      c.reallocate();
      if (c.runtimes.get(node)!.state !== 'up') return { status: 500, message: jobFailed(unit) };
    } else {
      const w = c.web.get(node)!;
      w.state = 'restarting';
      await sleep(delay);
      await this.bootWeb(h);
      if (c.web.get(node)!.state !== 'up') return { status: 500, message: jobFailed(unit) };
    }
    return { status: 200, message: '' };
  }

  status() {
    return {
      dir: this.layout.dir,
      scenario: this.layout.scenario,
      emulator: true,
      clusters: this.layout.clusters.map((lc) => {
        const c = this.clusters.get(lc.name)!;
        return {
          name: lc.name,
          api_url: lc.apiUrl,
          elected_manager: c.electedManager(),
          api_connections: c.apiConnections,
          nodes: c.nodes().map((n) => ({ ...n, ssh_port: this.hosts.get(n.name)!.sshPort })),
          web_hosts: [...c.web.values()].map((w) => ({ ...w, ssh_port: this.hosts.get(w.name)!.sshPort })),
        };
      }),
    };
  }

  private async bootEngine(host: LabHost): Promise<void> {
    const c = this.clusters.get(host.cluster)!;
    const rt = c.runtimes.get(host.name)!;
    const loaded = await loadEngineFiles(host.searchHome, this.layout.engine, host.engineEnv, host.engineConfigDir);
    if (!loaded.ok) return this.refuse(rt, host, loaded.reason);
    delete rt.version;
    Object.assign(rt, loaded.value);
    const err = await this.listenApi(c, host);
    if (err) return this.refuse(rt, host, err);
    rt.state = 'up';
    delete rt.reason;
    const stand = host.engineEnv ? startEngineProcess(this.layout.engine, host.searchHome, host.engineEnv) : undefined;
    if (stand) this.engines.set(host.name, stand);
    const state = await readNodeState(this.layout.dir, host.name);
    if (!state) return;
    rt.disk = state.disk;
    // the pid file names the stand-in where there is one, as the engine's service writes its own pid
    await writeProcess(this.layout.dir, host.name, this.layout.engine, state, startedSecondsAgo(state), stand?.pid);
    await applyAfterStart(this.layout.dir, host, this.layout.engine, state);
  }

  private async bootWeb(host: LabHost): Promise<void> {
    const w = this.clusters.get(host.cluster)!.web.get(host.name)!;
    const loaded = await loadDashboardsHosts(host.webHome, this.layout.engine, host.webConfigDir);
    const key = `web:${host.name}`;
    if (host.webEnv && !this.engines.has(key)) this.engines.set(key, startWebProcess(host.webHome, host.webEnv));
    if (!loaded.ok) {
      Object.assign(w, { state: 'down', reason: loaded.reason });
      await writeLog(join(host.webHome, 'logs'), `${this.layout.engine}-dashboards.log`, host.name, loaded.reason);
      return;
    }
    Object.assign(w, { hosts: loaded.value, state: 'up' });
    delete w.reason;
  }

  private async refuse(rt: NodeRuntime, host: LabHost, reason: string): Promise<void> {
    rt.state = 'down';
    rt.reason = reason;
    await writeLog(join(host.searchHome, 'logs'), `${host.cluster}.log`, host.name, reason);
  }

  private listenApi(c: ClusterRuntime, h: LabHost): Promise<string | null> {
    const server = this.deps.createServer(c, h.name);
    const port = this.layout.front?.apiListenPort ?? API_PORT;
    const sockets = new Set<Socket>();
    server.on('connection', (s: Socket) => {
      c.apiConnections += 1;
      sockets.add(s);
      s.once('close', () => sockets.delete(s));
    });
    return new Promise((resolve) => {
      server.once('error', (e: NodeJS.ErrnoException) =>
        resolve(`failed to bind ${h.ip}:${port}: ${e.code ?? e.message}`),
      );
      server.listen({ host: h.ip, port, exclusive: true }, () => {
        c.servers.set(h.name, { server, sockets });
        resolve(null);
      });
    });
  }

  /** Closes a node's listener and drops its connections, as a stopped JVM would. */
  private closeApi(c: ClusterRuntime, name: string): Promise<void> {
    const s = c.servers.get(name);
    if (!s) return Promise.resolve();
    c.servers.delete(name);
    return new Promise((resolve) => {
      s.server.close(() => resolve());
      for (const sock of s.sockets) sock.destroy();
    });
  }
}

function jobFailed(unit: string): string {
  return `Job for ${unit} failed because the control process exited with error code.\nSee "systemctl status ${unit}" and "journalctl -xeu ${unit}" for details.`;
}

async function writeLog(dir: string, file: string, node: string, reason: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const line = `[${new Date().toISOString()}][ERROR][o.o.b.Bootstrap] [${node}] Exception\norg.opensearch.bootstrap.StartupException: ${reason}\n`;
  await appendFile(join(dir, file), line);
}
