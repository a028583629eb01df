/** What the loaded packs need read, once for all their checks (the host reads of the batched command, the API GETs). */
import type { HostSettings } from '../../model/index.ts';

/** The host's own settings the packs' reads need beyond HostSettings (inventory vars, defaults applied here). */
export interface PackHostPlace extends Pick<HostSettings, 'searchHome' | 'webHome' | 'engine'> {
  procRoot?: string;
  enginePidFile?: string;
}

export interface PackFileNeed {
  /** `abs`: an absolute path, read only where it resolves under /etc, /usr/lib/systemd or the config folder. */
  base: 'search' | 'web' | 'abs';
  /** Relative to search_home or web_home, checked by safeRelPath; or absolute. */
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
  /** What the sources with lines of their own in the batched command read (`host:` of their module), by kind. */
  host: Map<string, Set<string>>;
  /** The engine process's start (`engine_process: started_at`). */
  started: boolean;
}

export const fileKey = (f: PackFileNeed): string => `${f.base}:${f.path}`;

/** Where a `file:` source is read: under web_home when the path says so (`web:REL`), else under search_home. */
export function fileNeed(path: string): PackFileNeed {
  if (path.startsWith('/')) return { base: 'abs', path };
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
