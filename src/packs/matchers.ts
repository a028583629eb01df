/** One matcher over one value on one node: holds, fails with why, or cannot be decided (an error, never a failure). */
import { linearRegExp } from '../base/linear-regex.ts';
import { stringifyJson } from '../base/json-text.ts';
import type { ApiAnswer, NodeView, PackMatcher, PackSource, PackValue } from '../model/index.ts';
import type { Read } from './sources-read.ts';
import { seedsVerdict, watermarkVerdict } from './sources-fleet.ts';

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

const HOLDS: Verdict = { holds: true };
const fails = (why: string): Verdict => ({ holds: false, why });

/** As the engine parses a setting: `"true"`/`"false"` are booleans, a plain decimal string a number. */
export function normal(v: unknown): unknown {
  if (v === 'true') return true;
  if (v === 'false') return false;
  if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) return Number(v);
  return v;
}

const same = (a: unknown, b: unknown): boolean =>
  stringifyJson(normal(a) ?? null) === stringifyJson(normal(b) ?? null) ||
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

export const show = (v: unknown): string => (v === undefined ? 'absent' : stringifyJson(v));

/** Names of a list's items: plugins by name, keystore entries as they are. */
const names = (v: unknown): unknown[] | undefined =>
  Array.isArray(v)
    ? v.map((x) => (x && typeof x === 'object' && 'name' in x ? (x as { name: unknown }).name : x))
    : undefined;

function scalar(m: PackMatcher, v: unknown): Verdict {
  switch (m.kind) {
    case 'equals':
      return same(v, m.value) ? HOLDS : fails(`is ${show(v)}, not ${show(m.value)}`);
    case 'not_equals':
      return !same(v, m.value) ? HOLDS : fails(`is ${show(v)}`);
    case 'one_of':
      return m.values.some((x) => same(v, x)) ? HOLDS : fails(`is ${show(v)}, not one of ${show(m.values)}`);
    case 'not_one_of':
      return !m.values.some((x) => same(v, x)) ? HOLDS : fails(`is ${show(v)}`);
    case 'matches':
      if (v === undefined) return fails('is absent');
      return linearRegExp(m.regex).test(String(v)) ? HOLDS : fails(`is ${show(v)}, which does not match /${m.regex}/`);
    case 'at_least':
    case 'at_most': {
      const n = asNumber(v);
      if (n === undefined) return v === undefined ? fails('is absent') : { error: `${show(v)} is not a number` };
      const okay = m.kind === 'at_least' ? n >= m.value : n <= m.value;
      return okay ? HOLDS : fails(`is ${show(v)}, ${m.kind === 'at_least' ? 'below' : 'above'} ${m.value}`);
    }
    default:
      return { error: `${m.kind} is not a scalar matcher` };
  }
}

const SCALAR = new Set(['equals', 'not_equals', 'one_of', 'not_one_of', 'matches', 'at_least', 'at_most']);

type ListMatcher = Extract<PackMatcher, { kind: 'contains' | 'not_contains' | 'contains_none_of' }>;

function list(m: ListMatcher, v: unknown): Verdict {
  const items = names(v);
  if (!items) return v === undefined ? fails('is absent') : { error: `${show(v)} is not a list` };
  const has = (x: PackValue) => items.some((i) => same(i, x));
  if (m.kind === 'contains_none_of') {
    const found = m.values.filter(has);
    return found.length ? fails(`contains ${found.map(show).join(', ')}`) : HOLDS;
  }
  if (m.kind === 'contains') return has(m.value) ? HOLDS : fails(`does not contain ${show(m.value)}`);
  return has(m.value) ? fails(`contains ${show(m.value)}`) : HOLDS;
}

export function match(m: PackMatcher, v: unknown, c: MatchContext): Verdict {
  if (SCALAR.has(m.kind) && Array.isArray(v)) {
    // a scalar matcher over a list holds for every element; the failing ones are named
    const bad = v.map((x) => ({ x, r: scalar(m, x) })).filter(({ r }) => !('holds' in r && r.holds));
    const error = bad.find(({ r }) => 'error' in r);
    if (error) return error.r;
    return bad.length ? fails(bad.map(({ r }) => (r as { why: string }).why).join('; ')) : HOLDS;
  }
  switch (m.kind) {
    case 'present':
      return (v !== undefined) === m.value ? HOLDS : fails(m.value ? 'is absent' : `is set to ${show(v)}`);
    case 'contains':
    case 'not_contains':
    case 'contains_none_of':
      return list(m, v);
    case 'same_as': {
      const o = c.other(m.source);
      if (!o.ok) return { error: o.error };
      return same(v, o.value) ? HOLDS : fails(`is ${show(v)}, but ${m.source.kind} is ${show(o.value)}`);
    }
    case 'at_most_of_memory': {
      const mem = c.memory();
      if (!mem.ok) return { error: mem.error };
      const n = asNumber(v);
      if (n === undefined || typeof mem.value !== 'number')
        return v === undefined ? fails('is absent') : { error: `${show(v)} is not a number` };
      const cap = mem.value * m.fraction;
      return n <= cap ? HOLDS : fails(`is ${show(v)}, above ${m.fraction} of the node's memory (${mem.value} bytes)`);
    }
    case 'same_on_nodes':
      return HOLDS; // judged across the nodes in scope, by judge.ts
    case 'seeds_are_cluster_managers':
      return seedsVerdict(v, c.nodes);
    case 'below_high_watermark':
      return watermarkVerdict(v, c.clusterSettings);
    case 'not_newer_than': {
      // nothing to load: a file that is not there is not newer than anything
      if (v === undefined) return HOLDS;
      const o = c.other(m.source);
      if (!o.ok) return { error: o.error };
      const [a, b] = [asNumber(v), asNumber(o.value)];
      if (a === undefined || b === undefined) return { error: `${show(v)} or ${show(o.value)} is not a number` };
      return a <= b ? HOLDS : fails(`is ${show(v)}, newer than ${m.source.kind} ${show(o.value)}`);
    }
    case 'plugin_versions_match_engine': {
      if (!c.engineVersion) return { error: "the cluster's engine version is unknown" };
      if (!Array.isArray(v)) return { error: `${show(v)} is not a list of plugins` };
      const odd = (v as Array<{ name?: unknown; engine_version?: unknown }>).filter(
        (p) => p.engine_version !== c.engineVersion,
      );
      return odd.length
        ? fails(
            `${odd.map((p) => `${String(p.name)} is built for ${show(p.engine_version ?? undefined)}`).join(', ')}; the engine runs ${c.engineVersion}`,
          )
        : HOLDS;
    }
    default:
      return scalar(m, v);
  }
}
