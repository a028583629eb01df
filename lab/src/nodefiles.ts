import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDocument, isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import { resolveSetting } from 'smdoctor';
import type { PluginInfo } from './model.ts';
import { KEYSTORE_HEADER } from './tools.ts';

/** What a node loads from its files at start, or why it refuses to start. */
export type Loaded<T> = { ok: true; value: T } | { ok: false; reason: string };

export interface EngineFiles {
  roles: string[];
  attrs: Record<string, string>;
  plugins: PluginInfo[];
  /** The installed release, from `lib/<engine>-<version>.jar`; absent in a tree without one. */
  version?: string;
}

/** The release whose jar `lib/` holds, as the engine's launcher finds it on its classpath. */
async function installedVersion(searchHome: string, engine: string): Promise<string | undefined> {
  const jar = new RegExp(`^${engine}-(\\d+\\.\\d+\\.\\d+)\\.jar$`);
  const names = await readdir(join(searchHome, 'lib')).catch(() => [] as string[]);
  return names.map((n) => jar.exec(n)?.[1]).find((v) => v !== undefined);
}

/** Secure settings that only exist when a plugin registers them. */
const SECURE_SETTING_PLUGIN: Record<string, string> = { 'jobscheduler.email.pass': 'sm-job-scheduler' };
const DEFAULT_ROLES = ['cluster_manager', 'data', 'ingest', 'remote_cluster_client'];

/** Flattens YAML into dotted settings as the engine does; a key seen twice (in any style) is an error. */
export function flattenSettings(text: string): Loaded<Map<string, unknown>> {
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length)
    return { ok: false, reason: `Failed to load settings: ${doc.errors[0]!.message.split('\n')[0]}` };
  const out = new Map<string, unknown>();
  let dup: string | null = null;
  const walk = (node: unknown, prefix: string) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        walk(pair.value, prefix ? `${prefix}.${k}` : k);
      }
      return;
    }
    if (out.has(prefix)) dup ??= prefix;
    out.set(prefix, isSeq(node) || isScalar(node) ? (node as YamlNode).toJSON() : null);
  };
  if (doc.contents !== null) walk(doc.contents, '');
  if (dup !== null) return { ok: false, reason: `duplicate settings key [${dup}] found` };
  return { ok: true, value: out };
}

function rolesFrom(settings: Map<string, unknown>): Loaded<string[]> {
  const roles = settings.get('node.roles');
  const legacy = ['node.master', 'node.data', 'node.ingest'].filter((k) => settings.has(k));
  if (roles !== undefined && legacy.length) {
    return {
      ok: false,
      reason: `can not explicitly configure node roles and use legacy role setting [${legacy[0]}]=[${String(settings.get(legacy[0]!))}]`,
    };
  }
  if (roles === undefined) {
    if (!legacy.length) return { ok: true, value: [...DEFAULT_ROLES] };
    const on = (k: string) => String(settings.get(k) ?? 'true') === 'true';
    const r = [
      on('node.master') && 'master',
      on('node.data') && 'data',
      on('node.ingest') && 'ingest',
      'remote_cluster_client',
    ];
    return { ok: true, value: r.filter((x): x is string => !!x).sort() };
  }
  const list = Array.isArray(roles)
    ? roles.map(String)
    : typeof roles === 'string'
      ? roles
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : null;
  if (!list) return { ok: false, reason: `Failed to parse value [${String(roles)}] for setting [node.roles]` };
  const known = ['cluster_manager', 'master', 'data', 'ingest', 'remote_cluster_client', 'search', 'ml', 'warm'];
  const unknown = list.find((r) => !known.includes(r));
  if (unknown) return { ok: false, reason: `unknown role [${unknown}]` };
  return { ok: true, value: [...new Set(list)].sort() };
}

async function pluginsFrom(dir: string, engine: string): Promise<Loaded<PluginInfo[]>> {
  const folders = (await readdir(dir, { withFileTypes: true }).catch(() => []))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  const out: PluginInfo[] = [];
  for (const f of folders) {
    const text = await readFile(join(dir, f, 'plugin-descriptor.properties'), 'utf8').catch(() => null);
    if (text === null) return { ok: false, reason: `Could not load plugin descriptor for plugin directory [${f}]` };
    const props = new Map(
      text
        .split('\n')
        .filter((l) => l.includes('=') && !/^\s*[#!]/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')).trim(), l.slice(l.indexOf('=') + 1).trim()]),
    );
    const name = props.get('name');
    if (!name)
      return { ok: false, reason: `property [name] is missing in [${join(dir, f, 'plugin-descriptor.properties')}]` };
    const built = props.get(`${engine}.version`);
    out.push({ name, version: props.get('version') ?? '', ...(built ? { engineVersion: built } : {}) });
  }
  return { ok: true, value: out };
}

/** Names in the lab keystore; a missing keystore is created by a real node at start, so it reads as empty. */
export async function keystoreNames(file: string): Promise<Loaded<string[]>> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return { ok: true, value: [] };
  if (!text.startsWith(KEYSTORE_HEADER))
    return { ok: false, reason: `Keystore has been corrupted or tampered with: ${file}` };
  return {
    ok: true,
    value: text
      .split('\n')
      .slice(1)
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split('=')[0]!),
  };
}

/** `${VAR}` placeholders of every setting, from the engine's environment then the file (the engine refuses the rest). */
function withPlaceholders(settings: Map<string, unknown>, env: Record<string, string>): Loaded<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  const setting = (k: string) => {
    const v = settings.get(k);
    return v === undefined || v === null || typeof v === 'object' ? undefined : String(v);
  };
  for (const [k, v] of settings) {
    const r = resolveSetting(v, env, setting);
    if (r.state === 'refused') return { ok: false, reason: `java.lang.IllegalArgumentException: ${r.message}` };
    if (r.state === 'value' && r.value !== undefined) out.set(k, r.value);
  }
  return { ok: true, value: out };
}

/** Reads a node's running state from its home, config folder and environment, exactly what a start would load. */
export async function loadEngineFiles(
  searchHome: string,
  engine: string,
  env: Record<string, string> = {},
  configDir = join(searchHome, 'config'),
): Promise<Loaded<EngineFiles>> {
  const ymlPath = join(configDir, `${engine}.yml`);
  const text = await readFile(ymlPath, 'utf8').catch(() => null);
  if (text === null) return { ok: false, reason: `Unable to read config file [${ymlPath}]` };
  const flat = flattenSettings(text);
  if (!flat.ok) return { ok: false, reason: `${flat.reason} in [${ymlPath}]` };
  const settings = withPlaceholders(flat.value, env);
  if (!settings.ok) return settings;
  const version = await installedVersion(searchHome, engine);
  const roles = rolesFrom(settings.value);
  if (!roles.ok) return roles;
  const attrs: Record<string, string> = {};
  for (const [k, v] of settings.value) if (k.startsWith('node.attr.')) attrs[k.slice(10)] = String(v);
  const plugins = await pluginsFrom(join(searchHome, 'plugins'), engine);
  if (!plugins.ok) return plugins;
  // PluginsService.verifyCompatibility: a plugin built for another release stops the node
  const stale = version && plugins.value.find((p) => p.engineVersion !== undefined && p.engineVersion !== version);
  if (stale)
    return {
      ok: false,
      reason: `java.lang.IllegalArgumentException: Plugin [${stale.name}] was built for OpenSearch version ${stale.engineVersion} but version ${version} is running`,
    };
  const names = await keystoreNames(join(configDir, `${engine}.keystore`));
  if (!names.ok) return names;
  const installed = new Set(plugins.value.map((p) => p.name));
  const orphan = names.value.find(
    (s) => SECURE_SETTING_PLUGIN[s] !== undefined && !installed.has(SECURE_SETTING_PLUGIN[s]!),
  );
  if (orphan) {
    return {
      ok: false,
      reason: `java.lang.IllegalArgumentException: unknown secure setting [${orphan}] please check that any required plugins are installed, or check the breaking changes documentation for removed settings`,
    };
  }
  return { ok: true, value: { roles: roles.value, attrs, plugins: plugins.value, ...(version ? { version } : {}) } };
}

/** `<engine>.hosts` of a web host's dashboards YAML (string or list, flat or nested key). */
export async function loadDashboardsHosts(
  webHome: string,
  engine: string,
  configDir = join(webHome, 'config'),
): Promise<Loaded<string[]>> {
  const path = join(configDir, `${engine}_dashboards.yml`);
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null) return { ok: false, reason: `Unable to read config file [${path}]` };
  const settings = flattenSettings(text);
  if (!settings.ok) return { ok: false, reason: `${settings.reason} in [${path}]` };
  const v = settings.value.get(`${engine}.hosts`) ?? 'http://localhost:9200';
  const list = Array.isArray(v) ? v.map(String) : [String(v)];
  if (!list.length)
    return { ok: false, reason: `[config validation of [${engine}].hosts]: array must contain at least 1 items` };
  return { ok: true, value: list };
}
