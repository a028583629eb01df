/** The security plugin's action names of the lab's write routes: what a read-only user is refused. */
import type { Route } from './router.ts';

// `METHOD /pattern` of the route that matched → the transport action OpenSearch checks for it
const WRITES: Record<string, string> = {
  'PUT /{index}/_doc/{id}': 'indices:data/write/index',
  'POST /{index}/_doc/{id}': 'indices:data/write/index',
  'POST /{index}/_doc': 'indices:data/write/index',
  'PUT /{index}/_create/{id}': 'indices:data/write/index',
  'POST /{index}/_create/{id}': 'indices:data/write/index',
  'DELETE /{index}/_doc/{id}': 'indices:data/write/delete',
  'PUT /{index}': 'indices:admin/create',
  'DELETE /{index}': 'indices:admin/delete',
  'PUT /_settings': 'indices:admin/settings/update',
  'PUT /{index}/_settings': 'indices:admin/settings/update',
  'PUT /_cluster/settings': 'cluster:admin/settings/update',
  'POST /_refresh': 'indices:admin/refresh',
  'POST /{index}/_refresh': 'indices:admin/refresh',
  'POST /_flush': 'indices:admin/flush',
  'POST /{index}/_flush': 'indices:admin/flush',
};

/** The action a write request needs, or null for a read (searches, scrolls and points in time are reads). */
export function writeAction(method: string, route: Route): string | null {
  return WRITES[`${method} /${route.segments.join('/')}`] ?? null;
}
