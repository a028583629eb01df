import type { ClusterView } from '../model.ts';
import type { Query, Reply } from './http.ts';
import type { IndexStore } from './store.ts';

export interface Ctx {
  method: string;
  path: string;
  params: Record<string, string>;
  query: Query;
  body: unknown;
  view: ClusterView;
  /** The node this API is mounted on. */
  nodeName: string;
  store: IndexStore;
}

export type Handler = (ctx: Ctx) => Reply | Promise<Reply>;

export interface Route {
  methods: string[];
  segments: string[];
  handler: Handler;
}

/** `route('GET,POST', '/{index}/_search', h)`; `{x}` captures one segment. */
export function route(methods: string, pattern: string, handler: Handler): Route {
  return { methods: methods.split(','), segments: pattern.split('/').filter(Boolean), handler };
}

function matchSegments(pattern: string[], path: string[]): Record<string, string> | null {
  if (pattern.length !== path.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < pattern.length; i++) {
    const p = pattern[i];
    if (p.startsWith('{')) {
      // Names starting with `_` are API words, not indices or ids, except `_all`.
      if (p === '{index}' && path[i].startsWith('_') && path[i] !== '_all') return null;
      params[p.slice(1, -1)] = path[i];
    } else if (p !== path[i]) return null;
  }
  return params;
}

export type Match = { route: Route; params: Record<string, string> } | { allowed: string[] } | null;

/** First route whose path and method match; else the methods the path allows (405), else null (400). */
export function matchRoute(routes: Route[], method: string, path: string[]): Match {
  const allowed = new Set<string>();
  const want = method === 'HEAD' ? ['HEAD', 'GET'] : [method];
  for (const r of routes) {
    const params = matchSegments(r.segments, path);
    if (!params) continue;
    if (r.methods.some((m) => want.includes(m))) return { route: r, params };
    r.methods.forEach((m) => allowed.add(m));
  }
  return allowed.size ? { allowed: [...allowed] } : null;
}
