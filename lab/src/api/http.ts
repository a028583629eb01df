import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest } from './errors.ts';
import { parseLong, stringifyLong } from 'smdoctor';

export const JSON_TYPE = 'application/json; charset=UTF-8';
export const TEXT_TYPE = 'text/plain; charset=UTF-8';

/** What a route answers; `text` wins over `body` (the _cat text form). */
export interface Reply {
  status?: number;
  body?: unknown;
  text?: string;
  headers?: Record<string, string>;
}

export type Query = Record<string, string>;

/** A query flag is on when present without value or with anything but "false". */
export function flag(query: Query, name: string): boolean {
  return name in query && query[name] !== 'false';
}

export function readBody(req: IncomingMessage, limit = 16 * 1024 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) reject(new Error('request body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Parses a JSON body; empty means undefined. */
export function parseJsonBody(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return parseLong(raw);
  } catch (err) {
    throw badRequest(`Failed to parse content to map: ${(err as Error).message}`, 'parse_exception');
  }
}

export function send(res: ServerResponse, method: string, reply: Reply, pretty: boolean): void {
  const status = reply.status ?? 200;
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  let payload: string;
  if (reply.text !== undefined) {
    headers['content-type'] = TEXT_TYPE;
    payload = reply.text;
  } else {
    headers['content-type'] = JSON_TYPE;
    payload = reply.body === undefined ? '' : stringifyLong(reply.body, pretty ? 2 : undefined) + (pretty ? '\n' : '');
  }
  headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(status, headers);
  res.end(method === 'HEAD' ? undefined : payload);
}

/** Parses engine time values (`500ms`, `2s`, `1m`, `-1`) to milliseconds. */
export function parseTime(value: string, setting: string): number {
  const m = /^(-?\d+(?:\.\d+)?)(nanos|micros|ms|s|m|h|d)?$/.exec(value.trim());
  if (!m || (m[2] === undefined && m[1] !== '-1' && m[1] !== '0')) {
    throw badRequest(
      `failed to parse setting [${setting}] with value [${value}] as a time value: unit is missing or unrecognized`,
      'parse_exception',
    );
  }
  const n = Number(m[1]);
  const unit: Record<string, number> = {
    nanos: 1e-6,
    micros: 1e-3,
    ms: 1,
    s: 1000,
    m: 60_000,
    h: 3_600_000,
    d: 86_400_000,
  };
  return n * (m[2] ? unit[m[2]] : 1);
}
