/**
 * serve's endpoints. Each answers from the last completed cycle: a scrape never starts an audit, so any number of
 * scrapers cost the fleet nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { renderReport } from '../report/render.ts';
import { escapeControls, redactText } from '../text/index.ts';
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
  /** Monotonic ms, the clock of the cycle state's times. */
  now: () => number;
  /** The interval between cycles: a last completed cycle older than the stale limit below makes /healthz 503. */
  intervalMs: number;
}

/** How old the last completed cycle may be: three intervals and three cycles of its length, and a minute. */
export const staleAfterMs = (intervalMs: number, lastDurationMs: number): number =>
  3 * (intervalMs + lastDurationMs) + 60_000;

/**
 * /healthz: 200 while the last cycle completed and is recent; 503 with the reason before the first one, after a
 * failed one (a later good cycle clears it), or when the last completed one is too old (the cycles are stuck).
 */
export function health(e: Pick<Endpoints, 'state' | 'now' | 'intervalMs' | 'gate'>): { ok: boolean; text: string } {
  const { state } = e;
  const ago = (at: number): string => `${Math.max(0, Math.round((e.now() - at) / 1000))} s ago`;
  if (state.lastError !== null && state.lastFailedAt !== null) {
    // the reason is for whoever runs serve; an endpoint without credentials does not tell it to anyone
    const reason = e.gate ? 'see the serve log' : oneLine(redactText(state.lastError));
    const served =
      state.lastOkAt === null ? 'no cycle has completed yet' : `the last report (${ago(state.lastOkAt)}) stays served`;
    return { ok: false, text: `failing: the last cycle failed ${ago(state.lastFailedAt)}: ${reason}; ${served}` };
  }
  if (!state.last || state.lastOkAt === null) return { ok: false, text: 'starting: no cycle has completed yet' };
  const limit = staleAfterMs(e.intervalMs, state.last.durationSeconds * 1000);
  if (e.now() - state.lastOkAt > limit)
    return {
      ok: false,
      text: `stale: the last cycle completed ${ago(state.lastOkAt)}, more than ${Math.round(limit / 1000)} s (the cycle under way is stuck)`,
    };
  return { ok: true, text: 'ok' };
}

// one short line of text: no control character, at most 300 characters
const oneLine = (s: string): string => {
  const flat = escapeControls(s.replace(/\s+/g, ' '));
  return flat.length > 300 ? `${flat.slice(0, 299)}…` : flat;
};

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
    if (path === '/healthz') {
      const h = health(e);
      return send(res, h.ok ? 200 : 503, TYPES.text, `${h.text}\n`, head);
    }
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
