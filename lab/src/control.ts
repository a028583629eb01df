import { createServer, request, type Server } from 'node:http';
import { rm } from 'node:fs/promises';
import { errText } from './errtext.ts';
import type { LabRuntime } from './runtime.ts';

/**
 * The lab's control channel: `POST /restart/<node>/<service>` (used by bin/labctl
 * over curl --unix-socket) and `GET /status`.
 */
export async function startControl(runtime: LabRuntime, socketPath: string): Promise<Server> {
  await rm(socketPath, { force: true });
  const server = createServer((req, res) => {
    const parts = (req.url ?? '/').split('?')[0]!.split('/').filter(Boolean).map(decodeURIComponent);
    const reply = (status: number, body: string, type = 'text/plain') => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (parts[0] === 'status') return reply(200, JSON.stringify(runtime.status()), 'application/json');
    if (req.method === 'POST' && parts[0] === 'restart' && parts.length === 3) {
      runtime.restart(parts[1]!, parts[2]!).then(
        (r) => reply(r.status, r.message),
        (e: unknown) => reply(500, `labctl: ${errText(e)}`),
      );
      return;
    }
    reply(400, 'usage: labctl NODE restart SERVICE');
  });
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return server;
}

export async function stopControl(server: Server, socketPath: string): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(socketPath, { force: true });
}

/** Asks a running lab over its control socket; null when nothing answers. */
export function controlRequest(
  socketPath: string,
  method: 'GET' | 'POST',
  path: string,
  timeoutMs = 5000,
): Promise<{ status: number; body: string } | null> {
  return new Promise((resolve) => {
    const req = request({ socketPath, method, path, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
}
