/** Hostile REST servers on 127.0.0.1 for tests: answers that stall, trickle or lie about their types. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Hostile {
  url: string;
  /** Requests seen, as `METHOD path`. */
  seen: string[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Serves `handler`; close() also drops the connections a stalled answer keeps open. */
export async function hostileServer(handler: Handler): Promise<Hostile> {
  const sockets = new Set<Socket>();
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

/** `200`, `Content-Length: 100`, then `[{` and nothing more. */
export const stallAfterHeaders: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
  res.write('[{');
};

/** A 100-byte body, one byte every `everyMs`: never idle long enough for a socket timeout. */
export const trickle =
  (everyMs: number): Handler =>
  (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), everyMs);
    res.on('close', () => clearInterval(timer));
  };

/** JSON answers by path (query string ignored); 404 for the rest. */
export const jsonRoutes =
  (routes: Record<string, unknown>): Handler =>
  (req, res) => {
    const path = (req.url ?? '/').replace(/\?.*$/, '');
    const hit = Object.prototype.hasOwnProperty.call(routes, path);
    res.writeHead(hit ? 200 : 404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        hit ? routes[path] : { error: { type: 'index_not_found_exception', reason: 'no such index' }, status: 404 },
      ),
    );
  };

/** Resolves to 'hung' when `p` has not settled after `ms`: a guard so a test of a hang fails instead of hanging. */
export function settlesOrHangs<T>(p: Promise<T>, ms: number): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<'hung'>((r) => (timer = setTimeout(() => r('hung'), ms)));
  return Promise.race([p, guard]).finally(() => clearTimeout(timer));
}
