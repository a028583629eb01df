/** `--source service`: the cluster's own migration endpoints (jobscheduler, dashboards, explain). */

import { ApiError } from '../base/errors.ts';
import type { ClusterApi } from '../cluster/types.ts';
import type { Explanation } from '../sml/index.ts';

export const SERVICE_BASE = '/_sme/migration/autokeyword';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function failed(api: ClusterApi, what: string, status: number, body: unknown): ApiError {
  const reason =
    isObj(body) && isObj(body.error) && typeof body.error.reason === 'string' ? `: ${body.error.reason}` : '';
  const hint = status === 400 || status === 404 ? ' (does this cluster have the migration endpoints?)' : '';
  return new ApiError(`${what} on ${api.url} answered ${status}${reason}${hint}`, { statusCode: status });
}

/** POST …/explain: the service's explanation of one query, checked to have the explanation's fields. */
export async function serviceExplain(api: ClusterApi, query: string): Promise<Explanation> {
  const path = `${SERVICE_BASE}/explain`;
  const res = await api.request({ method: 'POST', path, body: { query } });
  if (res.statusCode >= 300) throw failed(api, `POST ${path}`, res.statusCode, res.body);
  const b = res.body;
  if (
    !isObj(b) ||
    typeof b.original !== 'string' ||
    typeof b.replacement !== 'string' ||
    !Array.isArray(b.search_fields) ||
    !Array.isArray(b.errors)
  ) {
    throw new ApiError(`POST ${path} on ${api.url} gave no explanation (original, replacement, errors, search_fields)`);
  }
  return b as unknown as Explanation;
}

/** For display only: the fields a service may leave out (the service documents them as fields that "may appear"), defaulted. */
export const displayable = (explanation: Explanation): Explanation => ({
  ...explanation,
  expansion: explanation.expansion ?? explanation.original,
  macros: explanation.macros ?? [],
});

/** GET …/jobscheduler or …/dashboards: the service's replacement objects. */
export async function serviceList(
  api: ClusterApi,
  kind: 'jobs' | 'dashboards',
): Promise<Array<Record<string, unknown>>> {
  const path = `${SERVICE_BASE}/${kind === 'jobs' ? 'jobscheduler' : 'dashboards'}`;
  const res = await api.request({ method: 'GET', path });
  if (res.statusCode >= 300) throw failed(api, `GET ${path}`, res.statusCode, res.body);
  const b = res.body;
  const bad = !Array.isArray(b)
    ? -1
    : b.findIndex(
        (o) =>
          !isObj(o) ||
          !isObj(o.query) ||
          typeof o.query.original !== 'string' ||
          typeof o.query.replacement !== 'string',
      );
  if (bad !== -1 || !Array.isArray(b)) {
    throw new ApiError(
      `GET ${path} on ${api.url}: ${bad === -1 ? 'not a JSON array' : `element ${bad} has no query.original/query.replacement strings`}`,
    );
  }
  return b as Array<Record<string, unknown>>;
}

/** Offsets in `original` where the replacement inserted `text ` (the only change a replacement makes). */
export function insertionsOf(original: string, replacement: string): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < original.length && j < replacement.length) {
    if (original[i] === replacement[j] && !(replacement.startsWith('text ', j) && !original.startsWith('text ', i))) {
      i++;
      j++;
    } else if (replacement.startsWith('text ', j)) {
      out.push(i);
      j += 5;
    } else return out; // not an insertion-only change: mark nothing more
  }
  if (j < replacement.length && replacement.startsWith('text ', j)) out.push(i);
  return out;
}
