import { mkdir, writeFile, readFile, readdir, rm, chmod } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Scenario, ScenarioNode } from './model.ts';
import type { LabHost, LabLayout } from './layout.ts';
import { clustersOf } from './scenario-parse.ts';
import { pluginTool, keystoreTool, keystoreFile, labctlScript } from './tools.ts';
import { securitySettings, sizeBytes, writeCertificates, writeInstall, writeProc } from './nodefacts.ts';
import { LAB_VERSION } from './api/cluster.ts';

/** Marks plugin descriptors the lab wrote, so a re-up removes only its own plugins. */
const LAB_MARK = '# written by smdoctor lab';

const yamlScalar = (v: string | boolean | number) =>
  typeof v === 'string' && !/^[A-Za-z0-9_.\-/:]+$/.test(v) ? JSON.stringify(v) : String(v);

/** What else a node's <engine>.yml says: the discovery seeds and the security plugin's certificates. */
export interface YmlContext {
  seeds: string[];
}

/** Roles as `node.roles`, or as the legacy booleans the engine deprecated in 2.0 and dropped in 3.0. */
function roleLines(n: ScenarioNode, indent: string): string[] {
  if (!n.legacy_roles) return [`${indent}roles: [${n.roles.join(', ')}]`];
  const has = (r: string) => n.roles.includes(r) || (r === 'master' && n.roles.includes('cluster_manager'));
  return ['master', 'data', 'ingest'].map((r) => `${indent}${r}: ${has(r)}`);
}

/** <engine>.yml in the node's style (flat dotted keys or nested maps), with comments as a real one has. */
export function engineYml(
  engine: string,
  cluster: string,
  host: LabHost,
  n: ScenarioNode,
  ctx: YmlContext = { seeds: [] },
): string {
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
          ...roleLines(n, '  '),
          ...(attrs.length
            ? ['  # Custom attributes (node.attr.*)', '  attr:', ...attrs.map(([k, v]) => `    ${k}: ${yamlScalar(v)}`)]
            : []),
        ]
      : [
          '# ---------------------------------- Cluster -----------------------------------',
          `cluster.name: ${yamlScalar(cluster)}`,
          '# ------------------------------------ Node ------------------------------------',
          `node.name: ${n.name}`,
          ...roleLines(n, 'node.'),
          ...(attrs.length
            ? ['# Custom attributes', ...attrs.map(([k, v]) => `node.attr.${k}: ${yamlScalar(v)}`)]
            : []),
        ];
  const net = [
    '# ---------------------------------- Network -----------------------------------',
    `network.host: ${host.ip}`,
    'http.port: 9200',
    '#',
    '# --------------------------------- Discovery ----------------------------------',
    `discovery.seed_hosts: [${(n.seed_hosts ?? ctx.seeds).map(yamlScalar).join(', ')}]`,
    '#',
    '# --------------------------------- Security -----------------------------------',
    ...securitySettings(n.demo_certificates ?? false),
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

function descriptor(engine: string, plugin: string, version: string): string {
  const cls = plugin.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase());
  return [
    LAB_MARK,
    `description=${plugin} (smdoctor lab stand-in)`,
    `version=${version}.0`,
    `name=${plugin}`,
    `classname=org.${engine}.lab.${cls}Plugin`,
    'java.version=11',
    `${engine}.version=${version}`,
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
    const managers = c.nodes.filter((n) => n.roles.includes('cluster_manager') || n.roles.includes('master'));
    const seeds = managers.map((n) => byName.get(n.name)!.ip);
    const version = c.version ?? scenario.version ?? LAB_VERSION;
    for (const n of c.nodes) {
      const h = byName.get(n.name)!;
      await writeEngineTree(layout, h, n, { cluster, seeds, version: n.version ?? version });
      if (n.dashboards_hosts !== undefined) await writeWebTree(engine, h, hostUrls(n.dashboards_hosts, byName));
    }
    for (const d of c.dashboards ?? []) await writeWebTree(engine, byName.get(d.name)!, hostUrls(d.hosts, byName));
  }
}

async function writeEngineTree(
  layout: LabLayout,
  host: LabHost,
  node: ScenarioNode,
  c: { cluster: string; seeds: string[]; version: string },
): Promise<void> {
  const { engine } = layout;
  const home = host.searchHome;
  const conf = host.engineConfigDir;
  for (const d of ['plugins', 'bin', 'logs']) await mkdir(join(home, d), { recursive: true });
  await mkdir(conf, { recursive: true });
  await writeFile(join(conf, `${engine}.yml`), engineYml(engine, c.cluster, host, node, { seeds: c.seeds }));
  await writeCertificates(join(layout.dir, 'tls'), host, node);
  await writeInstall(host, node, engine, c.version);
  await writeProc(layout.dir, host, node, sizeBytes(node.disk_total ?? '100g'));
  const entries: Record<string, string> = { 'keystore.seed': randomBytes(18).toString('base64') };
  for (const k of node.keystore ?? []) entries[k] = `lab-secret-${randomBytes(6).toString('hex')}`;
  await writeFile(join(conf, `${engine}.keystore`), keystoreFile(entries), { mode: 0o660 });
  const wanted = new Set(node.plugins ?? []);
  for (const f of await readdir(join(home, 'plugins'))) {
    const desc = await readFile(join(home, 'plugins', f, 'plugin-descriptor.properties'), 'utf8').catch(() => '');
    if (!wanted.has(f) && desc.startsWith(LAB_MARK))
      await rm(join(home, 'plugins', f), { recursive: true, force: true });
  }
  for (const p of wanted) {
    await mkdir(join(home, 'plugins', p), { recursive: true });
    await writeFile(join(home, 'plugins', p, 'plugin-descriptor.properties'), descriptor(engine, p, c.version));
  }
  await writeFile(join(home, 'bin', `${engine}-plugin`), pluginTool(engine, layout.toolDelayFile), { mode: 0o755 });
  // a package's tools know its config folder, as the packages build them; OPENSEARCH_PATH_CONF moves it
  const packaged = conf === join(home, 'config') ? undefined : conf;
  await writeFile(join(home, 'bin', `${engine}-keystore`), keystoreTool(engine, layout.toolDelayFile, packaged), {
    mode: 0o755,
  });
  for (const t of ['plugin', 'keystore']) await chmod(join(home, 'bin', `${engine}-${t}`), 0o755);
}

async function writeWebTree(engine: string, host: LabHost, urls: string | string[]): Promise<void> {
  await mkdir(host.webConfigDir, { recursive: true });
  await writeFile(join(host.webConfigDir, `${engine}_dashboards.yml`), dashboardsYml(engine, host.name, urls));
  if (!existsSync(join(host.webHome, 'logs'))) await mkdir(join(host.webHome, 'logs'), { recursive: true });
}
