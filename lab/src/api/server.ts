import { createServer as createHttpsServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { errText } from '../errtext.ts';
import type { ClusterView } from '../model.ts';
import { ApiFailure, badRequest, forbidden, methodNotAllowed, noHandler, noManager, unauthorized } from './errors.ts';
import { writeAction } from './permissions.ts';
import { flag, parseJsonBody, readBody, send, type Query, type Reply } from './http.ts';
import { matchRoute, type Route } from './router.ts';
import { storeOf, syncAllocation, versionOf } from './cluster.ts';
import { catRoutes } from './cat.ts';
import { healthRoutes } from './health.ts';
import { nodeRoutes } from './nodes.ts';
import { fsRoutes } from './fs.ts';
import { settingsRoutes } from './settings.ts';
import { docRoutes } from './docs.ts';
import { mappingRoutes } from './mapping.ts';
import { searchRoutes } from './search.ts';
import { serviceRoutes } from './service.ts';
import { migrationRoutes } from './migration.ts';
import { indexRoutes } from './indices.ts';
import { clusterSettingsRoutes } from './clustersettings.ts';

export interface ApiAuth {
  username: string;
  password: string;
}

// Specific routes first: `/{index}` must not shadow `/_cat/...` or `/x/_doc/...`.
const ROUTES: Route[] = [
  ...clusterSettingsRoutes,
  ...fsRoutes,
  ...nodeRoutes,
  ...catRoutes,
  ...healthRoutes,
  ...serviceRoutes,
  ...searchRoutes,
  ...settingsRoutes,
  ...mappingRoutes,
  ...docRoutes,
  ...indexRoutes,
  ...migrationRoutes,
];

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function checkAuth(req: IncomingMessage, path: string, auth: ApiAuth): void {
  const header = req.headers.authorization ?? '';
  const m = /^Basic\s+(\S+)$/i.exec(header);
  if (!m) throw unauthorized(`Missing authentication information for REST request [${path}]`);
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon < 0 ? decoded : decoded.slice(0, colon);
  const pass = colon < 0 ? '' : decoded.slice(colon + 1);
  if (!(safeEqual(user, auth.username) && safeEqual(pass, auth.password))) {
    throw unauthorized(`unable to authenticate user [${user}] for REST request [${path}]`);
  }
}

/** `_cluster/*`, `_cat/*` and index creation go through the elected cluster manager. */
const needsManager = (segments: string[]): boolean =>
  segments[0] === '_cluster' || segments[0] === '_cat' || (segments.length === 1 && !segments[0]!.startsWith('_'));

async function dispatch(req: IncomingMessage, view: ClusterView, nodeName: string, auth: ApiAuth): Promise<Reply> {
  const url = new URL(req.url ?? '/', 'https://lab');
  const method = (req.method ?? 'GET').toUpperCase();
  const query: Query = Object.fromEntries(url.searchParams);
  const raw = await readBody(req);
  checkAuth(req, url.pathname, auth);
  let segments: string[];
  const uri = req.url ?? '/';
  try {
    segments = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    throw noHandler(uri, method);
  }
  const m = matchRoute(ROUTES, method, segments);
  if (m === null) throw noHandler(uri, method);
  if ('allowed' in m) throw methodNotAllowed(uri, method, m.allowed);
  // a read-only user is refused every write, as the security plugin's readall role is
  const action = view.apiAccess === 'read' ? writeAction(method, m.route) : null;
  if (action !== null) throw forbidden(action, auth.username);
  // 3.0 removed the deprecated master_timeout (cluster_manager_timeout stays)
  if ('master_timeout' in query && versionOf(view).startsWith('3.'))
    throw badRequest(`request [${url.pathname}] contains unrecognized parameter: [master_timeout]`);
  // no elected manager: what needs the cluster state answers 503, as the engine does after cluster_manager_timeout
  if (view.electedManager() === null && needsManager(segments)) throw noManager();
  syncAllocation(view);
  return m.route.handler({
    method,
    path: url.pathname,
    params: m.params,
    query,
    body: parseJsonBody(raw),
    view,
    nodeName,
    store: storeOf(view),
  });
}

/** The request handler of one node's API over the shared cluster view. */
export function createApiHandler(
  view: ClusterView,
  nodeName: string,
  auth: ApiAuth,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const pretty = flag(Object.fromEntries(new URL(req.url ?? '/', 'https://lab').searchParams), 'pretty');
    dispatch(req, view, nodeName, auth)
      .then((reply) => send(res, method, reply, pretty))
      .catch((err: unknown) => {
        const failure = err instanceof ApiFailure ? err : new ApiFailure(500, 'exception', errText(err));
        const payload = failure.text !== undefined ? { text: failure.text } : { body: failure.body() };
        send(res, method, { status: failure.status, ...payload, headers: failure.headers }, pretty);
      });
  };
}

/** An HTTPS server for one node, not yet listening (the daemon picks the address). */
export function createApiServer(opts: {
  view: ClusterView;
  nodeName: string;
  tls: { key: string; cert: string };
  auth: ApiAuth;
}): Server {
  const server = createHttpsServer(
    { key: opts.tls.key, cert: opts.tls.cert },
    createApiHandler(opts.view, opts.nodeName, opts.auth),
  );
  // the engine's HTTP layer keeps an idle connection open (no read timeout by default); Node's closes it after 5 s
  server.keepAliveTimeout = 0;
  return server;
}
