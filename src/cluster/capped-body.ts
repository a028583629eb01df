/** An API answer read up to the size limit: a cluster answering without end costs at most the limit, never the heap. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { createUnzip } from 'node:zlib';
import { CappedBuffer, mib } from '../base/limits.ts';

/** The answer passed the limit; reading stopped there. */
export class BodyTooLargeError extends Error {
  readonly limit: number;
  constructor(limit: number) {
    super(`the answer is too large to read (more than ${mib(limit)}; SMDOCTOR_MAX_FILE_MIB × 4 raises the limit)`);
    this.limit = limit;
    this.name = 'BodyTooLargeError';
  }
}

/** The body's bytes, decompressed when the server says gzip or deflate; the cap counts decompressed bytes (a zip bomb stops too). */
export function readCappedBody(res: Readable, headers: IncomingHttpHeaders, cap: number): Promise<Buffer> {
  const encoding = String(headers['content-encoding'] ?? '').toLowerCase();
  const zipped = encoding.includes('gzip') || encoding.includes('deflate');
  const source: Readable = zipped ? res.pipe(createUnzip()) : res;
  const buf = new CappedBuffer(cap);
  return new Promise<Buffer>((resolve, reject) => {
    let settled = false;
    // the first cause wins: destroying the stream below fires its own "aborted"
    const fail = (err: Error): void => {
      if (settled) return;
      settled = true;
      reject(err);
      res.destroy();
      if (source !== res) source.destroy();
    };
    source.on('data', (d: Buffer) => {
      if (!buf.push(d)) fail(new BodyTooLargeError(cap));
    });
    source.on('end', () => {
      settled = true;
      resolve(buf.concat());
    });
    source.on('error', fail);
    if (source !== res) res.on('error', fail);
    res.on('aborted', () => fail(new Error('Response aborted while reading the body')));
  });
}
