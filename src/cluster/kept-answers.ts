/**
 * serve's REST answers between cycles: each GET's last answer, by request. The same status, type and bytes give
 * the same body object, never parsed again; it is frozen, so nothing can change what later cycles are given.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ApiRequest } from './types.ts';

interface Kept {
  statusCode: number;
  type: string;
  bytes: Buffer;
  body: unknown;
}

function deepFreeze(v: unknown): unknown {
  if (v !== null && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

export function keptAnswers() {
  const last = new Map<string, Kept>();
  return {
    body(req: ApiRequest, statusCode: number, headers: IncomingHttpHeaders, bytes: Buffer, decode: () => unknown) {
      // only reads: a request with a body, or one that changes something, is answered afresh
      if (req.method !== 'GET' || req.body !== undefined) return decode();
      const key = JSON.stringify([req.path, req.querystring ?? {}]);
      const type = String(headers['content-type'] ?? '');
      const had = last.get(key);
      if (had && had.statusCode === statusCode && had.type === type && had.bytes.equals(bytes)) return had.body;
      const body = deepFreeze(decode());
      last.set(key, { statusCode, type, bytes, body });
      return body;
    },
  };
}
