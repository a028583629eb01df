/**
 * The Search Service's migration endpoints (GET …/jobscheduler, GET …/dashboards, POST …/explain),
 * computed with smdoctor's own SML module over the lab's stored documents, mappings and macros,
 * the way the vendor's service shares that module.
 */
import {
  entryOf,
  explainDetailed,
  extractDashboards,
  extractJobs,
  MappingIndex,
  replacementObject,
  type MacroDef,
  type RawMappings,
  type StoredDoc,
} from 'smdoctor';
import { ApiFailure } from './errors.ts';
import type { Reply } from './http.ts';
import { route, type Ctx, type Route } from './router.ts';
import type { IndexStore } from './store.ts';
import { faultyMappings, serviceFault } from './migration-fault.ts';

const BASE = '/_sme/migration/autokeyword';
// where the vendor's service keeps scheduled jobs, dashboards and macros, and the field of a job's query
const JOBS_INDEX = '.sm_jsc_jobs';
const DASHBOARDS_INDEX = '.sm_dashboards';
const MACROS_INDEX = '.sm_sme_macros';
const JOB_QUERY_FIELD = 'query';

function docsOf(store: IndexStore, index: string): StoredDoc[] {
  const rec = store.get(index);
  if (!rec) return [];
  return [...rec.docs]
    .sort((a, b) => a[1].order - b[1].order)
    .map(([id, d]) => ({ index, id, seqNo: d.seqNo, primaryTerm: d.primaryTerm, source: d.source }));
}

/** Every index's mapping (as `GET _mapping` answers) and the stored macro definitions that are well formed. */
function context(store: IndexStore): { mappings: MappingIndex; macros: MacroDef[] } {
  let raw: RawMappings = Object.fromEntries(store.names().map((n) => [n, { mappings: store.get(n)!.mappings }]));
  if (serviceFault() === 'keyword-rule') raw = faultyMappings(raw);
  const macros = docsOf(store, MACROS_INDEX)
    .map((d) => d.source)
    .filter((s): s is Record<string, unknown> => typeof s.name === 'string' && typeof s.definition === 'string')
    .map((s) => ({
      name: s.name as string,
      args: Array.isArray(s.args) ? s.args.map(String) : [],
      definition: s.definition as string,
    }));
  return { mappings: new MappingIndex([raw]), macros };
}

function replacements(ctx: Ctx, kind: 'jobs' | 'dashboards'): Reply {
  const docs = docsOf(ctx.store, kind === 'jobs' ? JOBS_INDEX : DASHBOARDS_INDEX);
  const { queries } = kind === 'jobs' ? extractJobs(docs, JOB_QUERY_FIELD) : extractDashboards(docs);
  const c = context(ctx.store);
  const out = [];
  for (const q of queries) {
    const e = entryOf(q, explainDetailed(q.query, c));
    if (e) out.push(replacementObject(e));
  }
  return { body: out };
}

/** The body must be exactly `{"query": "<string>"}`; anything else is the engine's 400. */
function explainBody(body: unknown): string {
  if (body === undefined) throw new ApiFailure(400, 'parse_exception', 'request body is required');
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiFailure(400, 'parse_exception', 'request body must be a JSON object with a [query] string');
  }
  const o = body as Record<string, unknown>;
  const extra = Object.keys(o).filter((k) => k !== 'query');
  if (extra.length) throw new ApiFailure(400, 'x_content_parse_exception', `[explain] unknown field [${extra[0]}]`);
  if (!('query' in o))
    throw new ApiFailure(400, 'action_request_validation_exception', 'Validation Failed: 1: query is missing;');
  if (typeof o.query !== 'string')
    throw new ApiFailure(
      400,
      'x_content_parse_exception',
      "[explain] query doesn't support values of type: " + valueType(o.query),
    );
  return o.query;
}

const valueType = (v: unknown) =>
  v === null
    ? 'VALUE_NULL'
    : Array.isArray(v)
      ? 'START_ARRAY'
      : typeof v === 'object'
        ? 'START_OBJECT'
        : typeof v === 'number'
          ? 'VALUE_NUMBER'
          : 'VALUE_BOOLEAN';

function explainOne(ctx: Ctx): Reply {
  const query = explainBody(ctx.body);
  return { body: explainDetailed(query, context(ctx.store)).explanation };
}

export const migrationRoutes: Route[] = [
  route('GET', `${BASE}/jobscheduler`, (ctx) => replacements(ctx, 'jobs')),
  route('GET', `${BASE}/dashboards`, (ctx) => replacements(ctx, 'dashboards')),
  route('POST', `${BASE}/explain`, explainOne),
];
