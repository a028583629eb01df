/**
 * serve's endpoints. Each answers from the last completed cycle: a scrape never starts an audit, so any number of
 * scrapers cost the fleet nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderReport } from '../report/render.ts';
import { CSP } from '../report/html/page.ts';
import type { Gate } from './auth.ts';
import type { CycleState } from './cycle.ts';
import { serveMetrics } from './metrics.ts';
import type { HostLink } from './kept.ts';

export interface Endpoints {
  state: CycleState;
  links: ReadonlyMap<string, HostLink>;
  /** When given, every endpoint but /healthz asks it to admit the request's credentials. */
  gate?: Gate;
}

const TYPES = {
  json: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
  text: 'text/plain; charset=utf-8',
  metrics: 'text/plain; version=0.0.4; charset=utf-8',
};

function send(res: ServerResponse, status: number, type: string, body: string, head = false): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...(type === TYPES.html ? { 'content-security-policy': CSP } : {}),
  });
  res.end(head ? undefined : body);
}

/** The request handler of `smdoctor serve`'s HTTP(S) server. */
export function endpoints(e: Endpoints) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0];
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      res.setHeader('allow', 'GET, HEAD');
      return send(res, 405, TYPES.text, 'method not allowed\n');
    }
    const last = e.state.last;
    if (path === '/healthz')
      return last
        ? send(res, 200, TYPES.text, 'ok\n', head)
        : send(res, 503, TYPES.text, 'starting: no cycle has completed yet\n', head);
    if (!e.gate) return answer(e, res, path, head);
    e.gate.admits(req.headers.authorization, req.socket.remoteAddress).then(
      (ok) => (ok ? answer(e, res, path, head) : refuse(res, head)),
      () => refuse(res, head),
    );
  };
}

function refuse(res: ServerResponse, head: boolean): void {
  res.setHeader('www-authenticate', 'Bearer, Basic realm="smdoctor"');
  send(res, 401, TYPES.text, 'unauthorized\n', head);
}

function answer(e: Endpoints, res: ServerResponse, path: string | undefined, head: boolean): void {
  const last = e.state.last;
  switch (path) {
    case '/metrics':
      return send(res, 200, TYPES.metrics, serveMetrics(e.state, e.links), head);
    case '/report.json':
      return last
        ? send(res, 200, TYPES.json, renderReport(last.report, 'json'), head)
        : send(res, 503, TYPES.text, 'no cycle has completed yet\n', head);
    case '/report.html':
      return last
        ? send(res, 200, TYPES.html, renderReport(last.report, 'html'), head)
        : send(res, 503, TYPES.text, 'no cycle has completed yet\n', head);
    default:
      return send(res, 404, TYPES.text, 'not found: /metrics, /report.json, /report.html, /healthz\n', head);
  }
}
