/** What the loaded packs need read, once for all their checks: the host reads of the batched command and the API GETs. */
import type { Pack, PackMatcher, PackSource } from '../model/index.ts';
import { FLEET_API } from './sources-fleet.ts';

export interface PackFileNeed {
  base: 'search' | 'web';
  /** Relative to search_home or web_home, checked by safeRelPath. */
  path: string;
}

export interface PackNeeds {
  /** By key `search:REL` / `web:REL`. */
  files: Map<string, PackFileNeed>;
  sysctls: Set<string>;
  memory: boolean;
  limits: boolean;
  jvm: boolean;
  certs: boolean;
  /** The keystore's names on every node, not only where the vendor's check 4 needs them. */
  keystore: boolean;
  /** GET paths as the packs wrote them (with their query), each once. */
  apiPaths: Set<string>;
  /** Files whose modification time is read (`file_modified`), relative to search_home. */
  mtimes: Set<string>;
  /** The engine process's start (`engine_process: started_at`). */
  started: boolean;
}

export const fileKey = (f: PackFileNeed): string => `${f.base}:${f.path}`;

/** Where a `file:` source is read: under web_home when the path says so (`web:REL`), else under search_home. */
export function fileNeed(path: string): PackFileNeed {
  return path.startsWith('web:') ? { base: 'web', path: path.slice(4) } : { base: 'search', path };
}

/** Why a pack's relative path is refused, or undefined when it stays under its folder (symlinks are checked on the node). */
export function unsafeRelPath(path: string): string | undefined {
  if (path === '' || path.startsWith('/')) return 'it must be a relative path';
  // eslint-disable-next-line no-control-regex -- a control character could split the batched command's lines
  if (/[\u0000-\u001f\u007f]/u.test(path)) return 'it holds a control character';
  if (path.split('/').some((s) => s === '..')) return "it must not climb out with '..'";
  return undefined;
}

/** An API path as the pack wrote it: one leading slash, the query split off. */
export function apiRequest(path: string): { path: string; querystring?: Record<string, string> } {
  const [p, q] = path.split('?', 2) as [string, string | undefined];
  const clean = `/${p.replace(/^\/+/, '')}`;
  return q ? { path: clean, querystring: Object.fromEntries(new URLSearchParams(q)) } : { path: clean };
}

/** One spelling per request (`/path?a=1&b=2`, the query sorted): two packs' spellings of one GET are read once. */
export function requestKey(path: string): string {
  const r = apiRequest(path);
  const q = Object.entries(r.querystring ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return q.length ? `${r.path}?${new URLSearchParams(q).toString()}` : r.path;
}

/** Every source a check reads: its `read:` and the operands of `same_as:`. */
export function sourcesOf(read: PackSource, expect: readonly PackMatcher[]): PackSource[] {
  return [read, ...expect.flatMap((m) => (m.kind === 'same_as' || m.kind === 'not_newer_than' ? [m.source] : []))];
}

export function needsOf(packs: readonly Pack[]): PackNeeds {
  const n: PackNeeds = {
    files: new Map(),
    sysctls: new Set(),
    memory: false,
    limits: false,
    jvm: false,
    certs: false,
    keystore: false,
    apiPaths: new Set(),
    mtimes: new Set(),
    started: false,
  };
  for (const c of packs.flatMap((p) => p.checks)) {
    if (c.expect.some((m) => m.kind === 'at_most_of_memory')) n.memory = true;
    fleetNeeds(n, c.expect);
    const all = [...sourcesOf(c.read, c.expect), ...(c.when ? sourcesOf(c.when.read, c.when.expect) : [])];
    for (const s of all) {
      fleetNeeds(n, [], s);
      if (s.kind === 'file') {
        const f = fileNeed(s.path);
        if (!unsafeRelPath(f.path)) n.files.set(fileKey(f), f);
      } else if (s.kind === 'sysctl') n.sysctls.add(s.name);
      else if (s.kind === 'memory') n.memory = true;
      else if (s.kind === 'engine_process' && s.limit === 'started_at') n.started = true;
      else if (s.kind === 'engine_process') n.limits = true;
      else if (s.kind === 'jvm_option') n.jvm = true;
      else if (s.kind === 'certificate') n.certs = true;
      else if (s.kind === 'keystore') n.keystore = true;
      else if (s.kind === 'api') n.apiPaths.add(s.path);
    }
  }
  return n;
}

/** True when the packs read nothing on hosts beyond what audit reads anyway. */
export const hostReadsNeeded = (n: PackNeeds): boolean =>
  n.files.size > 0 || n.sysctls.size > 0 || n.memory || n.limits || n.jvm || n.certs || n.mtimes.size > 0 || n.started;

/** What the fleet pack's sources and matchers need read (docs/fleet-pack.md). */
function fleetNeeds(n: PackNeeds, expect: readonly PackMatcher[], s?: PackSource): void {
  const api = (...paths: string[]) => paths.forEach((p) => n.apiPaths.add(p));
  for (const m of expect) {
    if (m.kind === 'below_high_watermark') api(FLEET_API.settings);
    if (m.kind === 'plugin_versions_match_engine') api(FLEET_API.versions);
  }
  if (s?.kind === 'certificates') n.certs = true;
  else if (s?.kind === 'file_modified' && !unsafeRelPath(s.path)) n.mtimes.add(s.path);
  else if (s?.kind === 'engine_version') api(FLEET_API.versions);
  else if (s?.kind === 'disk') api(FLEET_API.fs);
  else if (s?.kind === 'shard_usage') api(FLEET_API.health, FLEET_API.settings);
}
