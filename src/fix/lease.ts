/**
 * One fix per cluster: a lease document in smdoctor's own small index, created with op_type=create, renewed while the
 * run lasts and deleted at its end. Two operators on two machines see each other's through the cluster itself.
 */
import type { ClusterApi } from '../cluster/types.ts';
import { apiErrorText } from './api-error.ts';
import { LEASE_INDEX, LEASE_PATH, type LeaseDoc, type LeaseHolder } from '../facts/lease-note.ts';

export { LEASE_INDEX, LEASE_PATH, holderLine, type LeaseDoc, type LeaseHolder } from '../facts/lease-note.ts';

/** What taking the lease came to: held (maybe taken over), busy (someone else holds it), or not decidable. */
export type LeaseState =
  | { kind: 'held'; seqNo: number; primaryTerm: number; doc: LeaseDoc; tookOver?: LeaseDoc }
  | { kind: 'busy'; doc: LeaseDoc }
  | { kind: 'error'; why: string };

interface Written {
  _seq_no?: number;
  _primary_term?: number;
}
interface Read extends Written {
  found?: boolean;
  _source?: LeaseDoc;
}

const isoAfter = (now: number, ms: number): string => new Date(now + ms).toISOString();

/** The index with one shard and at most one replica: never the reason a small cluster is yellow. */
async function ensureIndex(api: ClusterApi): Promise<void> {
  const r = await api.request({
    method: 'PUT',
    path: `/${LEASE_INDEX}`,
    body: { settings: { index: { number_of_shards: 1, auto_expand_replicas: '0-1', hidden: true } } },
  });
  const type = (r.body as { error?: { type?: string } } | null)?.error?.type;
  if (r.statusCode !== 200 && type !== 'resource_already_exists_exception')
    throw new Error(`PUT /${LEASE_INDEX}: ${apiErrorText(r.statusCode, r.body)}`);
}

/**
 * Creates the lease, or takes over an expired one (or any, with `force`: --break-lease). Never throws: a cluster whose
 * lease cannot be decided is an `error`.
 */
export async function takeLease(
  api: ClusterApi,
  holder: LeaseHolder,
  o: { ttlMs: number; now: () => number; force?: boolean },
): Promise<LeaseState> {
  try {
    await ensureIndex(api);
    for (let attempt = 0; attempt < 3; attempt++) {
      const doc: LeaseDoc = {
        holder,
        started_at: new Date(o.now()).toISOString(),
        expires_at: isoAfter(o.now(), o.ttlMs),
      };
      const c = await api.request<Written>({
        method: 'PUT',
        path: LEASE_PATH,
        querystring: { op_type: 'create', refresh: 'true' },
        body: doc,
      });
      if (c.statusCode === 201 || c.statusCode === 200)
        return { kind: 'held', seqNo: c.body._seq_no ?? 0, primaryTerm: c.body._primary_term ?? 0, doc };
      if (c.statusCode !== 409)
        return { kind: 'error', why: `PUT ${LEASE_PATH}: ${apiErrorText(c.statusCode, c.body)}` };
      const g = await api.request<Read>({ method: 'GET', path: LEASE_PATH });
      if (g.statusCode === 404) continue;
      const old = g.body._source;
      if (g.statusCode !== 200 || !old)
        return { kind: 'error', why: `GET ${LEASE_PATH}: ${apiErrorText(g.statusCode, g.body)}` };
      if (!o.force && Date.parse(old.expires_at) > o.now()) return { kind: 'busy', doc: old };
      // expired (its holder died) or broken on purpose: replaced only if nobody else replaced it first
      const t = await api.request<Written>({
        method: 'PUT',
        path: LEASE_PATH,
        querystring: { if_seq_no: g.body._seq_no ?? -1, if_primary_term: g.body._primary_term ?? -1, refresh: 'true' },
        body: doc,
      });
      if (t.statusCode === 200 || t.statusCode === 201)
        return { kind: 'held', seqNo: t.body._seq_no ?? 0, primaryTerm: t.body._primary_term ?? 0, doc, tookOver: old };
      if (t.statusCode !== 409)
        return { kind: 'error', why: `PUT ${LEASE_PATH}: ${apiErrorText(t.statusCode, t.body)}` };
    }
    return { kind: 'error', why: 'the lease changed hands three times while it was being taken' };
  } catch (err) {
    return { kind: 'error', why: (err as Error).message };
  }
}

/** Pushes the expiry forward; the new sequence numbers, or why it failed (409: someone broke or took the lease). */
export async function renewLease(
  api: ClusterApi,
  held: Extract<LeaseState, { kind: 'held' }>,
  o: { ttlMs: number; now: () => number },
): Promise<string | null> {
  const doc = { ...held.doc, expires_at: isoAfter(o.now(), o.ttlMs) };
  const r = await api.request<Written>({
    method: 'PUT',
    path: LEASE_PATH,
    querystring: { if_seq_no: held.seqNo, if_primary_term: held.primaryTerm },
    body: doc,
  });
  if (r.statusCode !== 200) return apiErrorText(r.statusCode, r.body);
  held.seqNo = r.body._seq_no ?? held.seqNo;
  held.primaryTerm = r.body._primary_term ?? held.primaryTerm;
  held.doc = doc;
  return null;
}

/** Deletes the lease if it is still ours (a lease someone broke is theirs now). */
export async function releaseLease(
  api: ClusterApi,
  held: Extract<LeaseState, { kind: 'held' }>,
): Promise<string | null> {
  const r = await api.request({
    method: 'DELETE',
    path: LEASE_PATH,
    querystring: { if_seq_no: held.seqNo, if_primary_term: held.primaryTerm, refresh: 'true' },
  });
  return r.statusCode === 200 || r.statusCode === 404 ? null : apiErrorText(r.statusCode, r.body);
}
