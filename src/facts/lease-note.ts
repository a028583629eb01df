/** The fix lease as audit reads it: who holds it, since and until when; a note, never a finding. Pure. */
import { hostname } from 'node:os';
import * as v from 'valibot';
import type { ApiAnswer, Finding } from '../model/index.ts';

export const LEASE_INDEX = '.smdoctor-lease';
export const LEASE_PATH = `/${LEASE_INDEX}/_doc/fix`;

/** Who holds the lease: enough for another operator to find them. */
export interface LeaseHolder {
  user: string;
  host: string;
  /** A number from smdoctor; a string from a writer that has no number (the exported playbook's, say). */
  pid: number | string;
  command: string;
}

export interface LeaseDoc {
  holder: LeaseHolder;
  /** ISO 8601. */
  started_at: string;
  expires_at: string;
  /** How long the holder may go without renewing (seconds): another run watches it unrenewed at least this long. */
  ttl_seconds?: number | string;
}

/** One line naming the holder, since when and until when. */
export const holderLine = (lease: LeaseDoc): string =>
  `${lease.holder.user}@${lease.holder.host} pid ${lease.holder.pid} (${lease.holder.command}) since ${lease.started_at}, until ${lease.expires_at}`;

/** The lease document as smdoctor writes it; other fields are allowed (a newer writer's), these are required. */
export const LeaseSchema = v.looseObject({
  holder: v.looseObject({
    user: v.string(),
    host: v.string(),
    pid: v.union([v.number(), v.string()]),
    command: v.string(),
  }),
  started_at: v.string(),
  expires_at: v.string(),
  // a playbook's template may give the number as text
  ttl_seconds: v.optional(v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,9}$/))])),
});

// audit checked the answer's shape at the edge (cluster/shapes.ts): a found document's _source, if any
const Found = v.looseObject({ _source: v.optional(v.unknown()) });

/** A note for a lease found on the cluster (none for this very process's own, which fix holds while it audits). */
export function leaseNote(
  a: ApiAnswer | undefined,
  now: number,
  self = { host: hostname(), pid: process.pid },
): Finding | null {
  const doc = (a?.statusCode === 200 && v.is(Found, a.body) ? a.body._source : undefined) ?? null;
  if (!v.is(LeaseSchema, doc)) return null;
  if (doc.holder.host === self.host && doc.holder.pid === self.pid) return null;
  const live = Date.parse(doc.expires_at) > now;
  return {
    kind: 'note',
    message: live
      ? `smdoctor fix is running on this cluster: lease held by ${holderLine(doc)}; another fix is refused until it ends`
      : `an expired smdoctor fix lease was left by ${holderLine(doc)}: the next fix takes it over once it has seen it unrenewed for a whole expiry period`,
    evidence: { kind: 'fix-lease', live, ...doc },
  };
}
