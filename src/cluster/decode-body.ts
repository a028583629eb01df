/** An answer's bytes as the official client would have given them: JSON (64-bit integers kept) when typed so, else text. */
import type { IncomingHttpHeaders } from 'node:http';
import type { Serializer } from '@opensearch-project/opensearch';

/** Statuses of a gateway between smdoctor and the cluster: asked once more. */
export const RETRIED = new Set([502, 503, 504]);

export function decodeBody(
  serializer: Serializer,
  method: string,
  statusCode: number,
  headers: IncomingHttpHeaders,
  bytes: Buffer,
): unknown {
  const text = bytes.toString('utf8');
  const type = String(headers['content-type'] ?? '');
  const json = type.includes('application/json') || type.includes('application/vnd.opensearch+json');
  if (method === 'HEAD') return statusCode === 404 ? false : statusCode < 400 ? true : text;
  // a malformed JSON answer throws the client's DeserializationError, as before
  return json && text !== '' ? serializer.deserialize(text) : text;
}
