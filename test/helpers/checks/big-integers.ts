/** Cluster facts whose API answers hold integers past 2^53, read as the REST client reads them (BigInt). */
import { cluster as base } from './facts.ts';
import { BASE_LIMIT_DEFAULTS } from '../../../src/checks/base-limit-document.ts';
import type { ApiAnswer, ClusterFacts } from '../../../src/model/index.ts';

/** The Search Service's 404, with an id no double holds. */
export const BASE_LIMIT_BODY_404 =
  '{"error":{"type":"resource_not_found_exception","reason":"Base user limit not found in index","id":18446744073709551615},"status":404}';

export function cluster(o: { baseLimitEndpoint?: ApiAnswer; stored?: object }): ClusterFacts {
  const f = base();
  if (o.baseLimitEndpoint)
    return { ...f, api: { ...f.api, baseLimitEndpoint: o.baseLimitEndpoint, baseLimitDoc: undefined } };
  const doc = { ...structuredClone(BASE_LIMIT_DEFAULTS), ...o.stored };
  return { ...f, api: { ...f.api, baseLimitEndpoint: { statusCode: 200, body: doc }, baseLimitDoc: undefined } };
}
