import { mkdir, writeFile, readFile, readdir, rm, chmod } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Scenario, ScenarioNode } from './model.ts';
import type { LabHost, LabLayout } from './layout.ts';
import { clustersOf } from './scenario.ts';
import { pluginTool, keystoreTool, keystoreFile, labctlScript } from './tools.ts';

/** Marks plugin descriptors the lab wrote, so a re-up removes only its own plugins. */
const LAB_MARK = '# written by smdoctor lab';

const yamlScalar = (v: string | boolean | number) =>
  typeof v === 'string' && !/^[A-Za-z0-9_.\-/:]+$/.test(v) ? JSON.stringify(v) : String(v);

/** <engine>.yml in the node's style (flat dotted keys or nested maps), with comments as a real one has. */
export function engineYml(engine: string, cluster: string, host: LabHost, n: ScenarioNode): string {
  const Engine = engine[0]!.toUpperCase() + engine.slice(1);
  const attrs = Object.entries(n.attrs ?? {});
  const head = [
    `# ======================== ${Engine} Configuration =========================`,
    `# smdoctor lab node ${n.name}. The lab is an emulator, not ${Engine}: the node reads`,
    `# this file when its service starts; after an edit, restart the service.`,
    '#',
  ];
  const body =
    n.yml_style === 'nested'
      ? [
          '# ---------------------------------- Cluster -----------------------------------',
          'cluster:',
          `  name: ${yamlScalar(cluster)}`,
          '# ------------------------------------ Node ------------------------------------',
          'node:',
          `  name: ${n.name}`,
          `  roles: [${n.roles.join(', ')}]`,
          ...(attrs.length
            ? ['  # Custom attributes (node.attr.*)', '  attr:', ...attrs.map(([k, v]) => `    ${k}: ${yamlScalar(v)}`)]
            : []),
        ]
      : [
          '# ---------------------------------- Cluster -----------------------------------',
          `cluster.name: ${yamlScalar(cluster)}`,
          '# ------------------------------------ Node ------------------------------------',
          `node.name: ${n.name}`,
          `node.roles: [${n.roles.join(', ')}]`,
          ...(attrs.length
            ? ['# Custom attributes', ...attrs.map(([k, v]) => `node.attr.${k}: ${yamlScalar(v)}`)]
            : []),
        ];
  const net = [
    '# ---------------------------------- Network -----------------------------------',
    `network.host: ${host.ip}`,
    'http.port: 9200',
    '#',
    '# ---------------------------------- Paths -------------------------------------',
    `#path.logs: ${host.searchHome}/logs`,
    '',
  ];
  return [...head, ...body, ...net].join('\n') + (n.yml_extra ? `${n.yml_extra.replace(/\n?$/, '\n')}` : '');
}

export function dashboardsYml(engine: string, name: string, urls: string | string[]): string {
  const Engine = engine[0]!.toUpperCase() + engine.slice(1);
  const hosts = !Array.isArray(urls)
    ? `${engine}.hosts: ${JSON.stringify(urls)}`
    : `${engine}.hosts:\n${urls.map((u) => `  - ${JSON.stringify(u)}`).join('\n')}`;
  return [
    `# ${Engine} Dashboards configuration of lab host ${name} (emulated; read when the service starts).`,
    'server.port: 5601',
    `server.name: ${name}`,
    '',
    `# The ${Engine} instances to use for all your queries.`,
    hosts,
    `${engine}.ssl.verificationMode: certificate`,
    `${engine}.username: admin`,
    '',
  ].join('\n');
}

function descriptor(engine: string, plugin: string): string {
  const cls = plugin.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
  return [
    LAB_MARK,
    `description=${plugin} (smdoctor lab stand-in)`,
    'version=2.11.0.0',
    `name=${plugin}`,
    `classname=org.${engine}.lab.${cls}Plugin`,
    'java.version=11',
    `${engine}.version=2.11.0`,
    '',
  ].join('\n');
}

/** Resolves `hosts` entries: a node name becomes https://<ip>:9200, anything else is kept. */
function hostUrls(hosts: string | string[], byName: Map<string, LabHost>): string | string[] {
  const url = (h: string) => (byName.has(h) ? `https://${byName.get(h)!.ip}:9200` : h);
  return Array.isArray(hosts) ? hosts.map(url) : url(hosts);
}

/** (Re)creates what the lab owns in the node trees; leaves anything else in the dir alone. */
export async function writeTrees(layout: LabLayout, scenario: Scenario): Promise<void> {
  const { engine } = layout;
  const byName = new Map(layout.hosts.map((h) => [h.name, h]));
  await mkdir(join(layout.dir, 'bin'), { recursive: true });
  await writeFile(join(layout.dir, 'bin', 'labctl'), labctlScript(layout.controlSocket), { mode: 0o755 });
  await chmod(join(layout.dir, 'bin', 'labctl'), 0o755);
  for (const c of clustersOf(scenario)) {
    const cluster = c.cluster_name ?? c.name;
    for (const n of c.nodes) {
      const h = byName.get(n.name)!;
      await writeEngineTree(layout, h, n, cluster);
      if (n.dashboards_hosts !== undefined) await writeWebTree(engine, h, hostUrls(n.dashboards_hosts, byName));
    }
    for (const d of c.dashboards ?? []) await writeWebTree(engine, byName.get(d.name)!, hostUrls(d.hosts, byName));
  }
}

async function writeEngineTree(layout: LabLayout, host: LabHost, node: ScenarioNode, cluster: string): Promise<void> {
  const { engine } = layout;
  const home = host.searchHome;
  for (const d of ['config', 'plugins', 'bin', 'logs']) await mkdir(join(home, d), { recursive: true });
  await writeFile(join(home, 'config', `${engine}.yml`), engineYml(engine, cluster, host, node));
  const entries: Record<string, string> = { 'keystore.seed': randomBytes(18).toString('base64') };
  for (const k of node.keystore ?? []) entries[k] = `lab-secret-${randomBytes(6).toString('hex')}`;
  await writeFile(join(home, 'config', `${engine}.keystore`), keystoreFile(entries), { mode: 0o660 });
  const wanted = new Set(node.plugins ?? []);
  for (const f of await readdir(join(home, 'plugins'))) {
    const desc = await readFile(join(home, 'plugins', f, 'plugin-descriptor.properties'), 'utf8').catch(() => '');
    if (!wanted.has(f) && desc.startsWith(LAB_MARK))
      await rm(join(home, 'plugins', f), { recursive: true, force: true });
  }
  for (const p of wanted) {
    await mkdir(join(home, 'plugins', p), { recursive: true });
    await writeFile(join(home, 'plugins', p, 'plugin-descriptor.properties'), descriptor(engine, p));
  }
  await writeJvmAndProc(layout, host, node);
  await writeFile(join(home, 'bin', `${engine}-plugin`), pluginTool(engine, layout.toolDelayFile), { mode: 0o755 });
  await writeFile(join(home, 'bin', `${engine}-keystore`), keystoreTool(engine, layout.toolDelayFile), { mode: 0o755 });
  for (const t of ['plugin', 'keystore']) await chmod(join(home, 'bin', `${engine}-${t}`), 0o755);
}

/** The node's emulated /proc (inventory `proc_root`) and the pid file naming its engine process there. */
export const procRoot = (layout: LabLayout, host: LabHost): string => join(layout.dir, 'nodes', host.name, 'proc');
export const pidFile = (layout: LabLayout, host: LabHost): string =>
  join(layout.dir, 'nodes', host.name, 'run', `${layout.engine}.pid`);

const DEFAULT_JVM_OPTIONS = [
  '## JVM configuration (smdoctor lab)',
  '-Xms1g',
  '-Xmx1g',
  '8-10:-XX:+UseConcMarkSweepGC',
  '11-:-XX:+UseG1GC',
  '-XX:+HeapDumpOnOutOfMemoryError',
  '',
].join('\n');

const LIMIT_ROWS: Array<[string, string, string | number]> = [
  ['max_open_files', 'Max open files', 65535],
  ['max_locked_memory', 'Max locked memory', 'unlimited'],
  ['max_processes', 'Max processes', 4096],
];

/** jvm.options (+ .d), jdk/release and the node's /proc: what check packs read on a real host, where a real one keeps it. */
async function writeJvmAndProc(layout: LabLayout, host: LabHost, node: ScenarioNode): Promise<void> {
  const home = host.searchHome;
  await writeFile(join(home, 'config', 'jvm.options'), node.jvm_options ?? DEFAULT_JVM_OPTIONS);
  await rm(join(home, 'config', 'jvm.options.d'), { recursive: true, force: true });
  await mkdir(join(home, 'config', 'jvm.options.d'), { recursive: true });
  for (const [name, text] of Object.entries(node.jvm_options_d ?? {}))
    await writeFile(join(home, 'config', 'jvm.options.d', name), text);
  await mkdir(join(home, 'jdk'), { recursive: true });
  await writeFile(join(home, 'jdk', 'release'), 'IMPLEMENTOR="Eclipse Adoptium"\nJAVA_VERSION="21.0.4"\n');
  const proc = procRoot(layout, host);
  const pid = 4200 + layout.hosts.indexOf(host);
  await rm(proc, { recursive: true, force: true });
  await mkdir(join(proc, String(pid)), { recursive: true });
  await writeFile(
    join(proc, 'meminfo'),
    `MemTotal:       ${node.proc?.mem_total_kb ?? 8_388_608} kB\nMemFree:         1048576 kB\n`,
  );
  const sysctls = { 'vm.max_map_count': 262144, 'vm.swappiness': 1, ...node.proc?.sysctls };
  for (const [name, v] of Object.entries(sysctls)) {
    const file = join(proc, 'sys', ...name.split('.'));
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, `${v}\n`);
  }
  const pad = (x: string | number, n: number) => String(x).padEnd(n);
  const rows = LIMIT_ROWS.map(([key, row, dflt]) => {
    const v = node.proc?.limits?.[key] ?? dflt;
    return `${pad(row, 26)}${pad(v, 21)}${pad(v, 21)}${key === 'max_locked_memory' ? 'bytes' : key === 'max_open_files' ? 'files' : 'processes'}`;
  });
  await writeFile(
    join(proc, String(pid), 'limits'),
    [`${pad('Limit', 26)}${pad('Soft Limit', 21)}${pad('Hard Limit', 21)}Units`, ...rows, ''].join('\n'),
  );
  await mkdir(join(pidFile(layout, host), '..'), { recursive: true });
  await writeFile(pidFile(layout, host), `${pid}\n`);
}

async function writeWebTree(engine: string, host: LabHost, urls: string | string[]): Promise<void> {
  await mkdir(join(host.webHome, 'config'), { recursive: true });
  await writeFile(join(host.webHome, 'config', `${engine}_dashboards.yml`), dashboardsYml(engine, host.name, urls));
  if (!existsSync(join(host.webHome, 'logs'))) await mkdir(join(host.webHome, 'logs'), { recursive: true });
}
