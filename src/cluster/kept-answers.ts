/**
 * serve's REST answers between cycles: each GET's last answer, by request. The same status, type and bytes give
 * the same body object, never parsed again; it is frozen, so nothing can change what later cycles are given. The
 * bytes are kept as their digest: an API that answers at the body cap (4 × SMDOCTOR_MAX_FILE_MIB) every cycle
 * would otherwise hold that much per request between cycles, beside the parsed body.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { sha256 } from '../base/hash.ts';
import type { ApiRequest } from './types.ts';

interface Kept {
  statusCode: number;
  type: string;
  digest: string;
  body: unknown;
}

/** Freezes every object and array in `v`, with a stack of its own: an API's nesting depth never meets the call stack. */
function deepFreeze(v: unknown): unknown {
  const todo = [v];
  while (todo.length) {
    const x = todo.pop();
    if (x === null || typeof x !== 'object' || Object.isFrozen(x)) continue;
    Object.freeze(x);
    for (const y of Object.values(x)) todo.push(y);
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
      const digest = sha256(bytes);
      const had = last.get(key);
      if (had && had.statusCode === statusCode && had.type === type && had.digest === digest) return had.body;
      const body = deepFreeze(decode());
      last.set(key, { statusCode, type, digest, body });
      return body;
    },
  };
}
