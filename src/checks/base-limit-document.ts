/** Check 1: the base limit document exists and is valid as the vendor documents it. */
import {
  LIMITS_INDEX,
  checkOrder,
  type Action,
  type ApiAnswer,
  type Check,
  type ClusterFacts,
  type Finding,
} from '../model/index.ts';
import { apiDown, errorResult, finish, tally } from './util.ts';

/** The vendor's documented defaults, in its documented field order. */
export const BASE_LIMIT_DEFAULTS = {
  allowed_dt_start: 'now-10y',
  allowed_dt_end: 'now',
  max_parallel_request_count: 5,
  background_disk_quota: 5000000000,
  allowed_commands: ['*'],
  background_result_ttl: 86400,
  max_payload_size: 10000000000,
  max_search_running_time: 6000,
  max_command_ram_usage: 10000000000,
  max_payload_row_count: 1000000,
  max_lookup_size: 500000000,
  max_qsize: 200000,
  _meta: { id: 'base_limit' },
} as const;

type Field = keyof typeof BASE_LIMIT_DEFAULTS;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why a field's value is not what the vendor documents for it, or null when it is. */
function problem(field: Field, v: unknown): string | null {
  if (v === undefined) return 'is missing';
  if (field === 'allowed_dt_start' || field === 'allowed_dt_end') {
    return typeof v === 'string' && v.trim() !== '' ? null : 'must be a relative time string (such as now-10y)';
  }
  if (field === 'allowed_commands')
    return Array.isArray(v) && v.every((c) => typeof c === 'string') ? null : 'must be an array of strings';
  if (field === '_meta') return isObject(v) && v.id === 'base_limit' ? null : "must be an object with id 'base_limit'";
  // an integer past 2^53 is read exactly, as a BigInt
  return (typeof v === 'number' && Number.isInteger(v)) || typeof v === 'bigint' ? null : 'must be an integer';
}

/** The stored document: GET _doc's `_source` when it was read, else what the service endpoint answered. */
function storedDoc(facts: ClusterFacts, endpoint: ApiAnswer): unknown {
  const doc = facts.api.baseLimitDoc;
  if (doc && doc.statusCode === 200 && isObject(doc.body) && isObject(doc.body._source)) return doc.body._source;
  if (isObject(endpoint.body) && isObject(endpoint.body._source)) return endpoint.body._source;
  return endpoint.body;
}

/**
 * `create`: the document was absent, so fix must not overwrite one that appears meanwhile; `replace`: fix
 * replaces exactly the version the audit read (its seq_no/primary_term when GET _doc gave them).
 */
function putDocument(body: unknown, facts: ClusterFacts, mode: 'create' | 'replace'): Action {
  const a: Action = {
    type: 'put-document',
    method: 'PUT',
    api_path: `/${LIMITS_INDEX}/_doc/base_limit`,
    body,
    status: 'planned',
  };
  if (mode === 'create') return { ...a, op_type: 'create' };
  const doc = facts.api.baseLimitDoc;
  const read = doc && doc.statusCode === 200 && isObject(doc.body) ? doc.body : null;
  if (read && typeof read._seq_no === 'number' && typeof read._primary_term === 'number') {
    return { ...a, if_seq_no: read._seq_no, if_primary_term: read._primary_term };
  }
  return a;
}

/**
 * The corrected document keeps every valid stored value and any extra field (data is not thrown away);
 * missing or wrong fields take the documented default.
 */
export function correctedDocument(stored: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of Object.keys(BASE_LIMIT_DEFAULTS) as Field[])
    out[f] = problem(f, stored[f]) === null ? stored[f] : structuredClone(BASE_LIMIT_DEFAULTS[f]);
  for (const [k, v] of Object.entries(stored)) if (!(k in out)) out[k] = v;
  return out;
}

function run(facts: ClusterFacts) {
  const down = apiDown(facts);
  if (down) return errorResult('base-limit-document', down);
  const endpoint = facts.api.baseLimitEndpoint;
  if (!endpoint) return errorResult('base-limit-document', 'GET /_core/limits_user/base_limit was not read');
  const t = tally();
  if (endpoint.statusCode === 404) {
    t.findings.push({
      message: 'GET /_core/limits_user/base_limit answered 404: the base limit document is not found',
      evidence: { status: 404, body: endpoint.body },
    });
    t.actions.push(putDocument(structuredClone(BASE_LIMIT_DEFAULTS), facts, 'create'));
    t.failed.push('the base limit document is missing');
    return finish('base-limit-document', t, '');
  }
  if (endpoint.statusCode !== 200) {
    return errorResult(
      'base-limit-document',
      `GET /_core/limits_user/base_limit answered HTTP ${endpoint.statusCode}`,
      [
        {
          message: 'unexpected answer from the base limit endpoint',
          evidence: { status: endpoint.statusCode, body: endpoint.body },
          kind: 'unverified',
        },
      ],
    );
  }
  const stored = storedDoc(facts, endpoint);
  if (!isObject(stored)) {
    t.findings.push({ message: 'the base limit document is not a JSON object', evidence: { value: stored } });
    t.actions.push(putDocument(structuredClone(BASE_LIMIT_DEFAULTS), facts, 'replace'));
    t.failed.push('the base limit document is not a valid document');
    return finish('base-limit-document', t, '');
  }
  const bad: Finding[] = [];
  for (const f of Object.keys(BASE_LIMIT_DEFAULTS) as Field[]) {
    const why = problem(f, stored[f]);
    if (why)
      bad.push({
        message: `field ${f} ${why}`,
        evidence: { field: f, value: stored[f] ?? null, default: BASE_LIMIT_DEFAULTS[f] },
      });
  }
  if (bad.length === 0) return finish('base-limit-document', t, 'the base limit document is present and valid');
  t.findings.push(...bad);
  t.actions.push(putDocument(correctedDocument(stored), facts, 'replace'));
  t.failed.push(`the base limit document is not valid (${bad.length} field${bad.length === 1 ? '' : 's'})`);
  return finish('base-limit-document', t, '');
}

export const baseLimitDocument: Check = {
  id: 'base-limit-document',
  order: checkOrder('base-limit-document'),
  troubleshootingRow:
    '| 1 | GET `/_core/limits_user/base_limit` | the limit document is not found | PUT the base limit document (2.1, defaults) into `.sm_sme_limits_user` as `base_limit` |',
  run,
};
