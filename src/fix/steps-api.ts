/** REST steps: the base limit document (optimistic concurrency), the limits index settings, shard placement. */
import { isDataRole, splitRoles } from '../facts/roles.ts';
import { ALLOCATION_KEY, type ActionOf, type CatRow } from '../model/index.ts';
import { deadline, within, type Deadline } from '../base/deadline.ts';
import { waitUntil, type Look } from './wait.ts';
import { Acknowledged, CatRows, shaped, Written } from '../cluster/shapes.ts';
import { WAIT_FACTOR, type StepEnv, type StepResult } from './types.ts';
import { describeAllocation, readAllocation, resetAllocation } from './allocation.ts';
import { apiErrorText } from './api-error.ts';
import { setsAllocation } from '../facts/allocation.ts';

/** PUT the document: `op_type=create` when it was absent, else `if_seq_no`/`if_primary_term` of the version read. */
export async function putDocument(action: ActionOf<'put-document'>, env: StepEnv): Promise<StepResult> {
  const querystring: Record<string, string | number> = {};
  if (action.op_type === 'create') querystring.op_type = 'create';
  else if (action.if_seq_no !== undefined && action.if_primary_term !== undefined) {
    querystring.if_seq_no = action.if_seq_no;
    querystring.if_primary_term = action.if_primary_term;
  }
  const res = await env.api.request({ method: 'PUT', path: action.api_path, querystring, body: action.body });
  if (res.statusCode === 200 || res.statusCode === 201) {
    const result = shaped(Written, res.body, `PUT ${action.api_path}`).result;
    return { status: 'done', ...(result ? { reason: `document ${result}` } : {}) };
  }
  if (res.statusCode === 409) {
    const why =
      action.op_type === 'create'
        ? 'the document appeared since the audit: re-run audit'
        : 'the document changed since the audit: re-run audit';
    return { status: 'failed', error: `${why} (${apiErrorText(409, res.body)})` };
  }
  return { status: 'failed', error: apiErrorText(res.statusCode, res.body) };
}

export async function putSettings(a: ActionOf<'put-settings'>, env: StepEnv): Promise<StepResult> {
  // the plan's rolling restarts hold and restore this setting, reset-allocation clears it: nothing else may set it
  if (setsAllocation(a.api_path, a.body))
    return {
      status: 'failed',
      error: `refused: ${ALLOCATION_KEY} is set by the plan itself (its rolling restarts hold it and put it back; reset-allocation clears it)`,
    };
  const res = await env.api.request({ method: 'PUT', path: a.api_path, body: a.body });
  if (res.statusCode === 200 && shaped(Acknowledged, res.body, `PUT ${a.api_path}`).acknowledged === true)
    return { status: 'done', reason: 'acknowledged' };
  return {
    status: 'failed',
    error: res.statusCode === 200 ? 'the settings change was not acknowledged' : apiErrorText(res.statusCode, res.body),
  };
}

// a malformed answer is a reason the wait goes on, named by endpoint and field, not a TypeError
const rowsOf = (body: unknown, what: string): CatRow[] => shaped(CatRows, body, what);
const isData = (r: CatRow): boolean => splitRoles(r['node.roles']).some(isDataRole);

/** Data nodes holding no STARTED copy of the index, or why that could not be read. */
async function missingCopies(
  env: StepEnv,
  index: string,
  dl: Deadline,
): Promise<{ missing: string[] } | { error: string }> {
  const nodes = await dl.race(
    env.api.request({ method: 'GET', path: '/_cat/nodes', querystring: { format: 'json', h: 'name,node.roles' } }),
    'GET /_cat/nodes',
  );
  if (nodes.statusCode !== 200) return { error: `GET /_cat/nodes: ${apiErrorText(nodes.statusCode, nodes.body)}` };
  const shards = await dl.race(
    env.api.request({ method: 'GET', path: `/_cat/shards/${index}`, querystring: { format: 'json' } }),
    `GET /_cat/shards/${index}`,
  );
  if (shards.statusCode !== 200)
    return { error: `GET /_cat/shards/${index}: ${apiErrorText(shards.statusCode, shards.body)}` };
  const started = new Set(
    rowsOf(shards.body, `GET /_cat/shards/${index}`)
      .filter((s) => s.state === 'STARTED')
      .map((s) => s.node),
  );
  return {
    missing: rowsOf(nodes.body, 'GET /_cat/nodes')
      .filter(isData)
      .map((n) => n.name ?? '?')
      .filter((n) => !started.has(n)),
  };
}

/** The `v=true` table, as the vendor's troubleshooting shows it, for the report. */
async function shardTable(env: StepEnv, index: string): Promise<string | undefined> {
  try {
    // shown after the wait too, so it gets one request's time of its own, not forever
    const res = await within(
      env.api.request({ method: 'GET', path: `/_cat/shards/${index}`, querystring: { v: 'true' } }),
      env.timeout * 1000,
      'GET /_cat/shards',
    );
    return typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  } catch {
    return undefined;
  }
}

/** Polls until every data node holds a STARTED copy of the limits index, or the deadline. */
export async function verifyShards(a: ActionOf<'verify-shards'>, env: StepEnv): Promise<StepResult> {
  const index = a.api_path.replace(/^\/_cat\/shards\//, '').replace(/\?.*$/, '');
  // a stalled answer counts against the wait: every request only gets the time that is left
  const dl = deadline(WAIT_FACTOR * env.timeout * 1000, env.now);
  const outcome = await waitUntil(
    dl,
    async (): Promise<Look<void>> => {
      const r = await missingCopies(env, index, dl);
      if ('missing' in r && r.missing.length === 0) return { holds: true, value: undefined };
      return { holds: false, why: 'error' in r ? r.error : `no started copy on ${r.missing.join(', ')}` };
    },
    { sleep: env.sleep, pollMs: env.pollMs, initial: '' },
  );
  const output = await shardTable(env, index);
  return outcome.holds
    ? { status: 'done', reason: 'every data node holds a started copy', ...(output !== undefined ? { output } : {}) }
    : {
        status: 'failed',
        error: `after ${WAIT_FACTOR * env.timeout}s: ${outcome.cause}`,
        ...(output !== undefined ? { output } : {}),
      };
}

/** reset-allocation: a leftover allocation setting (ALLOCATION_KEY) back to unset (the engine's `all`) in both layers. */
export async function resetAllocationStep(_a: ActionOf<'reset-allocation'>, env: StepEnv): Promise<StepResult> {
  const dl = deadline(env.timeout * 1000, env.now, env.signal);
  const before = await dl.race(readAllocation(env.api), 'GET /_cluster/settings');
  if (before.persistent === null && before.transient === null) return { status: 'skipped', reason: 'already unset' };
  await dl.race(resetAllocation(env.api), 'PUT /_cluster/settings');
  return { status: 'done', reason: `reset from ${describeAllocation(before)}` };
}
