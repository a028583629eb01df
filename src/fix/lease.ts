/**
 * One fix per cluster: a lease document in smdoctor's own small index, created with op_type=create, renewed while the
 * run lasts and deleted at its end. Two operators on two machines see each other's through the cluster itself.
 */
import * as v from 'valibot';
import type { ClusterApi } from '../cluster/types.ts';
import { DocAnswer, errorOf, HealthAnswer, SettingsAnswer, shaped, Written } from '../cluster/shapes.ts';
import { Interrupted, pause } from '../base/deadline.ts';
import { apiErrorText } from './api-error.ts';
import type { Health } from './gate.ts';
import {
  LEASE_INDEX,
  LEASE_PATH,
  LeaseSchema,
  holderLine,
  type LeaseDoc,
  type LeaseHolder,
} from '../facts/lease-note.ts';

/** What taking the lease came to: held (maybe taken over), busy (someone else holds it), or not decidable. */
export type LeaseState =
  | { kind: 'held'; seqNo: number; primaryTerm: number; doc: LeaseDoc; tookOver?: string }
  | { kind: 'busy'; doc: LeaseDoc }
  | { kind: 'error'; why: string };

/** Why a cluster's steps stop: its lease was broken, taken over or not renewed for a whole expiry period. */
export class LeaseLost extends Error {
  constructor(why: string) {
    super(`lease lost: ${why}`);
    this.name = 'LeaseLost';
  }
}

export interface TakeOptions {
  ttlMs: number;
  /** Wall clock: only for the times written into the document, for people to read. */
  now: () => number;
  /** Monotonic clock (ms): how long a lease has been watched unrenewed. */
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
  /** --break-lease: take the lease whoever holds it. */
  force?: boolean;
  /** Seconds the lease index's copies may take to become active (--timeout). */
  activeSecs: number;
  /** Told when an apparently expired lease starts being watched. */
  onWatch?: (doc: LeaseDoc) => void;
  /** Ctrl-C: the watch ends, nothing is taken. */
  signal?: AbortSignal;
}

const isoAfter = (now: number, ms: number): string => new Date(now + ms).toISOString();

const OWN_SETTINGS = { number_of_shards: 1, auto_expand_replicas: '0-1', hidden: true };

/**
 * The index with one shard and at most one replica: never the reason a small cluster is yellow. One made by
 * another writer (a lease document put without it: one replica, say) gets the same replica rule.
 */
async function ensureIndex(api: ClusterApi): Promise<void> {
  const r = await api.request({ method: 'PUT', path: `/${LEASE_INDEX}`, body: { settings: { index: OWN_SETTINGS } } });
  if (r.statusCode === 200) return;
  const e = errorOf(r.body);
  if (typeof e !== 'object' || e.type !== 'resource_already_exists_exception')
    throw new Error(`PUT /${LEASE_INDEX}: ${apiErrorText(r.statusCode, r.body)}`);
  const s = await api.request({
    method: 'GET',
    path: `/${LEASE_INDEX}/_settings/index.auto_expand_replicas`,
    querystring: { flat_settings: 'true' },
  });
  if (s.statusCode !== 200) return;
  const have = shaped(SettingsAnswer, s.body, `GET /${LEASE_INDEX}/_settings`)[LEASE_INDEX]?.settings;
  if (have?.['index.auto_expand_replicas'] === OWN_SETTINGS.auto_expand_replicas) return;
  const p = await api.request({
    method: 'PUT',
    path: `/${LEASE_INDEX}/_settings`,
    body: { index: { auto_expand_replicas: OWN_SETTINGS.auto_expand_replicas } },
  });
  if (p.statusCode !== 200) throw new Error(`PUT /${LEASE_INDEX}/_settings: ${apiErrorText(p.statusCode, p.body)}`);
}

/**
 * A new lease index's replica recovers for a while (yellow): the pre-flight would refuse smdoctor's own bookkeeping,
 * so the index's copies must be active first; up to `secs` seconds, a second at a time. Null when they are, else why not.
 */
async function indexActive(api: ClusterApi, secs: number): Promise<string | null> {
  let h: Health = {};
  for (let i = 0; i < Math.max(1, secs); i++) {
    const r = await api.request({
      method: 'GET',
      path: `/_cluster/health/${LEASE_INDEX}`,
      querystring: { wait_for_status: 'green', timeout: '1s' },
    });
    if (r.statusCode !== 200 && r.statusCode !== 408)
      return `GET /_cluster/health/${LEASE_INDEX}: ${apiErrorText(r.statusCode, r.body)}`;
    h = shaped(HealthAnswer, r.body ?? {}, `GET /_cluster/health/${LEASE_INDEX}`);
    if (h.status === 'green') return null;
  }
  return `the lease index ${LEASE_INDEX} is ${h.status ?? 'unknown'}, not green, after ${secs}s (${h.initializing_shards ?? '?'} initializing, ${h.unassigned_shards ?? '?'} unassigned): its replica is still recovering; nothing was changed here, run fix again once it is green`;
}

interface Seen {
  status: number;
  body: unknown;
  doc: unknown;
  seqNo: number;
  primaryTerm: number;
}

async function readLease(api: ClusterApi): Promise<Seen> {
  const g = await api.request({ method: 'GET', path: LEASE_PATH });
  const body = g.statusCode === 200 ? shaped(DocAnswer, g.body, `GET ${LEASE_PATH}`) : null;
  return {
    status: g.statusCode,
    body: g.body,
    doc: body?._source,
    seqNo: body?._seq_no ?? -1,
    primaryTerm: body?._primary_term ?? -1,
  };
}

/** The document as a lease, or an error naming what is wrong with it and what to do. */
function asLease(doc: unknown): LeaseDoc | Extract<LeaseState, { kind: 'error' }> {
  try {
    return shaped(LeaseSchema, doc, `GET ${LEASE_PATH}`);
  } catch (err) {
    return {
      kind: 'error',
      why: `${(err as Error).message}: not a lease smdoctor wrote; delete it if nothing else uses it, or --break-lease`,
    };
  }
}

/**
 * A lease whose expiry has passed by this machine's clock is still another machine's word: it is taken only after it
 * stayed unchanged (same _seq_no and _primary_term) for a whole expiry period by this machine's monotonic clock.
 */
async function watch(
  api: ClusterApi,
  seen: Seen,
  o: TakeOptions,
  periodMs: number,
): Promise<'gone' | 'unrenewed' | Seen> {
  const from = o.clock();
  for (;;) {
    const left = periodMs - (o.clock() - from);
    if (left <= 0) return 'unrenewed';
    await pause(o.sleep, Math.min(left, Math.max(1, periodMs / 24)), o.signal);
    const now = await readLease(api);
    if (now.status === 404) return 'gone';
    if (now.status !== 200) return now;
    if (now.seqNo !== seen.seqNo || now.primaryTerm !== seen.primaryTerm) return now;
  }
}

/** A holder that renews less often than fix (the exported play, between long steps) says so: it is watched that long, up to a day. */
const watchPeriod = (doc: LeaseDoc, ownMs: number): number =>
  Math.max(ownMs, Math.min(Number(doc.ttl_seconds ?? 0) * 1000, 24 * 3600 * 1000));

/**
 * Creates the lease, or takes over one left unrenewed (or any, with `force`: --break-lease). Never throws: a cluster
 * whose lease cannot be decided is an `error`.
 */
export async function takeLease(api: ClusterApi, holder: LeaseHolder, o: TakeOptions): Promise<LeaseState> {
  try {
    await ensureIndex(api);
    const inactive = await indexActive(api, o.activeSecs);
    if (inactive) return { kind: 'error', why: inactive };
    for (let attempt = 0; attempt < 3; attempt++) {
      const doc: LeaseDoc = {
        holder,
        started_at: new Date(o.now()).toISOString(),
        expires_at: isoAfter(o.now(), o.ttlMs),
        ttl_seconds: Math.ceil(o.ttlMs / 1000),
      };
      const c = await api.request({
        method: 'PUT',
        path: LEASE_PATH,
        querystring: { op_type: 'create', refresh: 'true' },
        body: doc,
      });
      if (c.statusCode === 201 || c.statusCode === 200) {
        const w = shaped(Written, c.body, `PUT ${LEASE_PATH}`);
        return { kind: 'held', seqNo: w._seq_no ?? 0, primaryTerm: w._primary_term ?? 0, doc };
      }
      if (c.statusCode !== 409)
        return { kind: 'error', why: `PUT ${LEASE_PATH}: ${apiErrorText(c.statusCode, c.body)}` };
      const seen = await readLease(api);
      if (seen.status === 404) continue;
      if (seen.status !== 200 || seen.doc === undefined)
        return { kind: 'error', why: `GET ${LEASE_PATH}: ${apiErrorText(seen.status, seen.body)}` };
      const old = o.force ? null : asLease(seen.doc);
      if (old && 'kind' in old) return old;
      // the other machine's clock can only make fix wait: a lease it says is live is refused at once
      if (old && Date.parse(old.expires_at) > o.now()) return { kind: 'busy', doc: old };
      if (old) {
        o.onWatch?.(old);
        const after = await watch(api, seen, o, watchPeriod(old, o.ttlMs));
        if (after === 'gone') continue;
        if (after !== 'unrenewed') {
          if (after.status !== 200)
            return { kind: 'error', why: `GET ${LEASE_PATH}: ${apiErrorText(after.status, after.body)}` };
          const renewed = asLease(after.doc);
          return 'kind' in renewed ? renewed : { kind: 'busy', doc: renewed };
        }
      }
      // unrenewed for a whole period (its holder died) or broken on purpose: replaced only if nobody replaced it first
      const t = await api.request({
        method: 'PUT',
        path: LEASE_PATH,
        querystring: { if_seq_no: seen.seqNo, if_primary_term: seen.primaryTerm, refresh: 'true' },
        body: doc,
      });
      const was = v.is(LeaseSchema, seen.doc) ? holderLine(seen.doc) : 'a document not in the lease shape';
      if (t.statusCode === 200 || t.statusCode === 201) {
        const w = shaped(Written, t.body, `PUT ${LEASE_PATH}`);
        return { kind: 'held', seqNo: w._seq_no ?? 0, primaryTerm: w._primary_term ?? 0, doc, tookOver: was };
      }
      if (t.statusCode !== 409)
        return { kind: 'error', why: `PUT ${LEASE_PATH}: ${apiErrorText(t.statusCode, t.body)}` };
    }
    return { kind: 'error', why: 'the lease changed hands three times while it was being taken' };
  } catch (err) {
    if (err instanceof Interrupted) return { kind: 'error', why: 'interrupted while watching the lease' };
    return { kind: 'error', why: (err as Error).message };
  }
}

/** Pushes the expiry forward: null, or why it failed and whether the lease is someone else's now (a 409). */
export async function renewLease(
  api: ClusterApi,
  held: Extract<LeaseState, { kind: 'held' }>,
  o: { ttlMs: number; now: () => number },
): Promise<{ why: string; lost: boolean } | null> {
  const doc = { ...held.doc, expires_at: isoAfter(o.now(), o.ttlMs) };
  const r = await api.request({
    method: 'PUT',
    path: LEASE_PATH,
    querystring: { if_seq_no: held.seqNo, if_primary_term: held.primaryTerm },
    body: doc,
  });
  if (r.statusCode !== 200) return { why: apiErrorText(r.statusCode, r.body), lost: r.statusCode === 409 };
  const w = shaped(Written, r.body, `PUT ${LEASE_PATH}`);
  held.seqNo = w._seq_no ?? held.seqNo;
  held.primaryTerm = w._primary_term ?? held.primaryTerm;
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
