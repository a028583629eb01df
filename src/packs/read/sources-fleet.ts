/**
 * The sources and matchers the fleet pack added to format 1 (docs/fleet-pack.md): certificates the security settings
 * name, setting keys, a node's engine version and disk, the cluster's shard headroom, a file's age against the engine
 * process's start, discovery seeds and the high disk watermark. All read from what audit already gathered.
 */
import type { GenericSchema, InferOutput } from 'valibot';
import { isMap, isScalar } from 'yaml';
import type { ApiAnswer, ApiFacts, HostFacts, NodeView } from '../../model/index.ts';
import { parsedFile } from '../../facts/yml.ts';
import { errText } from '../../base/errors.ts';
import { CatRows, ClusterSettings, HealthAnswer, NodesFs, shaped } from '../../cluster/shapes.ts';

// the shapes of sources-read.ts and matchers.ts, restated so this module imports neither (they import it)
type Read = { ok: true; value: unknown } | { ok: false; error: string };
type Verdict = { holds: true } | { holds: false; why: string } | { error: string };
interface ReadContext {
  host: HostFacts | null;
  api: ApiFacts;
  nodes?: NodeView[];
}

/** The per-cluster GETs these sources add to audit's reads (fixed paths: nothing from a pack reaches them). */
export const FLEET_API = {
  versions: '_cat/nodes?format=json&h=name,ip,version',
  fs: '_nodes/stats/fs',
  health: '_cluster/health',
  settings: '_cluster/settings?include_defaults=true&flat_settings=true',
} as const;

/** The security plugin's certificate settings, transport then HTTP. */
export const CERT_SETTINGS = [
  'plugins.security.ssl.transport.pemcert_filepath',
  'plugins.security.ssl.http.pemcert_filepath',
] as const;

const ok = (value: unknown): Read => ({ ok: true, value });
const err = (error: string): Read => ({ ok: false, error });

function answer<S extends GenericSchema>(
  c: ReadContext,
  path: string,
  schema: S,
): { ok: true; body: InferOutput<S> } | { ok: false; error: string } {
  const a: ApiAnswer | undefined = c.api.packReads?.[path];
  if (!a)
    return { ok: false, error: `GET /${path.split('?')[0]} was not read${c.api.error ? `: ${c.api.error}` : ''}` };
  if (a.statusCode !== 200)
    return { ok: false, error: `GET /${path.split('?')[0]} answered ${a.statusCode || 'nothing'}` };
  try {
    return { ok: true, body: shaped(schema, a.body, `GET /${path.split('?')[0]}`) };
  } catch (e) {
    return { ok: false, error: errText(e) };
  }
}

/** The running node an inventory host is, from the cluster's `_cat/nodes` (matched by audit). */
function nodeOf(c: ReadContext): NodeView | undefined {
  return c.host ? c.nodes?.find((n) => n.host === c.host!.host) : undefined;
}

/** Every flattened key `<engine>.yml` sets, as the engine flattens nested and dotted keys; names only. */
export function settingKeys(c: ReadContext): Read {
  const f = c.host?.engineYml;
  if (!f) return err(`${c.host?.config.engine ?? 'engine'}.yml is missing`);
  const p = parsedFile(f);
  if (p.error) return err(`${f.path}:${p.error}`);
  const out: string[] = [];
  const walk = (node: unknown, prefix: string) => {
    if (!isMap(node)) return void (prefix && out.push(prefix));
    for (const pair of node.items) {
      const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      walk(pair.value, prefix ? `${prefix}.${k}` : k);
    }
  };
  walk(p.doc.doc.contents, '');
  return ok(out);
}

/** The node's running version, from `_cat/nodes`. */
export function engineVersion(c: ReadContext): Read {
  const node = nodeOf(c);
  if (!node) return err(`${c.host?.host ?? 'the host'} is not among the cluster's running nodes`);
  const a = answer(c, FLEET_API.versions, CatRows);
  if (!a.ok) return err(a.error);
  const row = a.body.find((r) => r.name === node.name);
  return row?.version ? ok(row.version) : err(`_cat/nodes has no version for ${node.name}`);
}

/** The node's data path from `_nodes/stats/fs`: total, available and percent used. */
export function disk(c: ReadContext): Read {
  const node = nodeOf(c);
  if (!node) return err(`${c.host?.host ?? 'the host'} is not among the cluster's running nodes`);
  const a = answer(c, FLEET_API.fs, NodesFs);
  if (!a.ok) return err(a.error);
  const nodes = Object.values(a.body.nodes ?? {});
  const t = nodes.find((n) => n.name === node.name)?.fs?.total;
  if (!t?.total_in_bytes || t.available_in_bytes === undefined)
    return err(`_nodes/stats/fs has no disk for ${node.name}`);
  const used = (1 - t.available_in_bytes / t.total_in_bytes) * 100;
  return ok({
    total_bytes: t.total_in_bytes,
    available_bytes: t.available_in_bytes,
    used_percent: Math.round(used * 100) / 100,
  });
}

/** A cluster setting as the engine resolves it: transient, then persistent, then the default. */
function clusterSetting(b: InferOutput<typeof ClusterSettings>, key: string): string | undefined {
  for (const part of ['transient', 'persistent', 'defaults'] as const) {
    const v = b[part]?.[key];
    if (v !== undefined && v !== null) return String(v);
  }
  return undefined;
}

/** Open shards over `cluster.max_shards_per_node` × data nodes. */
export function shardUsage(c: ReadContext): Read {
  const h = answer(c, FLEET_API.health, HealthAnswer);
  if (!h.ok) return err(h.error);
  const s = answer(c, FLEET_API.settings, ClusterSettings);
  if (!s.ok) return err(s.error);
  const health = h.body;
  const open = (health.active_shards ?? 0) + (health.initializing_shards ?? 0) + (health.unassigned_shards ?? 0);
  const perNode = Number(clusterSetting(s.body, 'cluster.max_shards_per_node') ?? 1000);
  const data = health.number_of_data_nodes ?? 0;
  if (!data || !Number.isFinite(perNode)) return err('the cluster has no data node or no shard limit');
  return ok(open / (perNode * data));
}

/** The engine process's start (epoch seconds): /proc/stat's btime plus field 22 of /proc/<pid>/stat in clock ticks. */
export function startedAt(c: ReadContext): Read {
  const r = c.host?.packReads;
  if (!r?.procStat || !r.bootStat) return err("the engine process's start was not read");
  if (r.procStat.error || r.bootStat.error) return err((r.procStat.error ?? r.bootStat.error)!);
  if (r.procStat.text === null) return err('no running engine process was found (its pid file names none)');
  // the command name (field 2) may hold spaces and parentheses: count from the last ')'
  const rest = r.procStat.text
    .slice(r.procStat.text.lastIndexOf(')') + 1)
    .trim()
    .split(/\s+/);
  const ticks = Number(rest[19]);
  const btime = Number(/^btime (\d+)$/m.exec(r.bootStat.text ?? '')?.[1]);
  const hz = Number(r.clkTck?.text?.trim() || 100);
  if (!Number.isFinite(ticks) || !Number.isFinite(btime) || !hz)
    return err("the engine process's start cannot be read");
  return ok(Math.floor(btime + ticks / hz));
}

/** Every certificate the security settings name, each with the setting that names it. */
export function certificates(one: (setting: string) => Read): Read {
  const out: unknown[] = [];
  for (const setting of CERT_SETTINGS) {
    const r = one(setting);
    if (!r.ok) return r;
    if (r.value !== undefined) out.push({ setting, ...(r.value as object) });
  }
  return ok(out);
}

const HOLDS: Verdict = { holds: true };
const fails = (why: string): Verdict => ({ holds: false, why });

/** A seed's host part: `host`, `host:port`, `[v6]:port`. */
const seedHost = (s: string): string => (s.startsWith('[') ? s.slice(1, s.indexOf(']')) : s.replace(/:\d+$/, ''));

/** discovery.seed_hosts names every manager-eligible node and only nodes of the cluster (by name, address or host). */
export function seedsVerdict(v: unknown, nodes: readonly NodeView[] | undefined): Verdict {
  if (!nodes?.length) return { error: "the cluster's nodes are unknown" };
  if (v === undefined) return fails('is absent: the node finds its cluster only on this machine');
  const seeds = (Array.isArray(v) ? v : String(v).split(',')).map((s) => seedHost(String(s).trim()));
  const names = (n: NodeView) => [n.name, n.ip, n.host].filter(Boolean);
  const outside = seeds.filter((s) => !nodes.some((n) => names(n).includes(s)));
  const managers = nodes.filter((n) => n.roles.includes('cluster_manager') || n.roles.includes('master'));
  const missing = managers.filter((m) => !seeds.some((s) => names(m).includes(s))).map((m) => m.name);
  const why = [
    missing.length ? `misses the manager-eligible ${missing.join(', ')}` : '',
    outside.length ? `names ${outside.join(', ')}, no node of this cluster` : '',
  ].filter(Boolean);
  return why.length ? fails(why.join('; ')) : HOLDS;
}

/** A `disk` value against the effective `cluster.routing.allocation.disk.watermark.high` (percent, ratio or free bytes). */
export function watermarkVerdict(v: unknown, settings: ApiAnswer | undefined): Verdict {
  if (!settings || settings.statusCode !== 200) return { error: 'the cluster settings were not read' };
  const d = v as { used_percent?: number; available_bytes?: number } | undefined;
  if (d?.used_percent === undefined) return { error: 'the disk use is unknown' };
  let body;
  try {
    body = shaped(ClusterSettings, settings.body, 'GET /_cluster/settings');
  } catch (e) {
    return { error: errText(e) };
  }
  const high = clusterSetting(body, 'cluster.routing.allocation.disk.watermark.high') ?? '90%';
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(high);
  const ratio = /^0?\.\d+$|^1(\.0+)?$/.test(high) ? Number(high) * 100 : undefined;
  if (pct || ratio !== undefined) {
    const limit = pct ? Number(pct[1]) : ratio!;
    return d.used_percent <= limit ? HOLDS : fails(`is ${d.used_percent}% used, above the high watermark ${high}`);
  }
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb|tb)$/i.exec(high);
  if (!m) return { error: `the high watermark ${JSON.stringify(high)} cannot be read` };
  const free = Number(m[1]) * 1024 ** ['b', 'kb', 'mb', 'gb', 'tb'].indexOf(m[2]!.toLowerCase());
  return (d.available_bytes ?? 0) >= free
    ? HOLDS
    : fails(`has ${d.available_bytes} bytes free, below the high watermark ${high}`);
}
