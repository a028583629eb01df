/** The value of one source on one node (or of the cluster), from the facts gathered once: read, absent, or an error. */
import type { PackSource } from '../../model/index.ts';
import { isSecretKey } from '../../text/index.ts';
import { sourceKind } from '../sources/registry.ts';
import { err, ok, type Read, type ReadContext } from './values.ts';

/** Whether a source's value is a secret: a secret-named setting, or the keystore (its names only are ever read). */
export function isSecretSource(s: PackSource): boolean {
  return (s.kind === 'setting' || s.kind === 'dashboards_setting') && isSecretKey(s.key);
}

function plain(s: PackSource, c: ReadContext): Read {
  const k = sourceKind(s.kind);
  if (k.cluster) return k.read(s, c);
  const h = c.host;
  if (!h) return err(`${s.kind} is read on nodes, not of the cluster (each: node)`);
  if (!h.reachable) return err(`host ${h.host} is unreachable${h.error ? `: ${h.error}` : ''}`);
  return k.read(s, c);
}

/** The source's value, with `field:` applied (over each item of a list). */
export function readSource(s: PackSource, c: ReadContext): Read {
  const r = plain(s, c);
  if (!r.ok || s.field === undefined || r.value === undefined) return r;
  const field = s.field;
  const one = (v: unknown) =>
    v && typeof v === 'object' && Object.hasOwn(v, field) ? (v as Record<string, unknown>)[field] : undefined;
  return ok(Array.isArray(r.value) ? r.value.map(one) : one(r.value));
}
