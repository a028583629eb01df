/** What every matcher shares: its verdict, what it may look at beside the value, and how values compare. */
import type { ApiAnswer, NodeView, PackSource } from '../../model/index.ts';
import type { Read } from '../read/values.ts';

export type Verdict = { holds: true } | { holds: false; why: string } | { error: string };

export interface MatchContext {
  /** Another source on the same node (`same_as`). */
  other(s: PackSource): Read;
  /** The node's `memory` (`at_most_of_memory`). */
  memory(): Read;
  /** The node's running engine version (`plugin_versions_match_engine`), else the cluster's; undefined when unknown. */
  engineVersion?: string;
  /** The cluster's running nodes (`seeds_are_cluster_managers`). */
  nodes?: readonly NodeView[];
  /** `GET _cluster/settings?include_defaults` (`below_high_watermark`). */
  clusterSettings?: ApiAnswer;
}

export const HOLDS: Verdict = { holds: true };
export const fails = (why: string): Verdict => ({ holds: false, why });

/** As the engine parses a setting: `"true"`/`"false"` are booleans, a plain decimal string a number. */
export function normal(v: unknown): unknown {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  return v;
}

export const same = (a: unknown, b: unknown): boolean =>
  JSON.stringify(normal(a) ?? null) === JSON.stringify(normal(b) ?? null) ||
  (Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i])));

const UNITS: Record<string, number> = {
  b: 1,
  k: 1024,
  kb: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  d: 1,
};

/** A value as a number: numbers, `unlimited` (Infinity), and sizes as the engine writes them (`512mb`, `31g`). */
export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return undefined;
  if (v === 'unlimited') return Infinity;
  const m = /^(-?\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(v.trim());
  const unit = m ? UNITS[m[2]!.toLowerCase() || 'b'] : undefined;
  return m && unit !== undefined ? Number(m[1]) * unit : undefined;
}

export const show = (v: unknown): string => (v === undefined ? 'absent' : JSON.stringify(v));

/** Names of a list's items: plugins by name, keystore entries as they are. */
export const names = (v: unknown): unknown[] | undefined =>
  Array.isArray(v)
    ? v.map((x) => (x && typeof x === 'object' && 'name' in x ? (x as { name: unknown }).name : x))
    : undefined;

/** Bytes as people read them: `1.0 GiB`, `512 B`. */
export function bytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let i = 0;
  let x = n;
  while (Math.abs(x) >= 1024 && i < units.length - 1) [x, i] = [x / 1024, i + 1];
  return i === 0 ? `${n} B` : `${x.toFixed(1)} ${units[i]}`;
}
