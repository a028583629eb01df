/** A plan file's exact shape: every pin present, every action of a known type with only its own fields. Pure. */
import type { ActionType } from '../model/index.ts';

type Rule = (v: unknown) => boolean;
const str: Rule = (v) => typeof v === 'string';
const num: Rule = (v) => typeof v === 'number' && Number.isFinite(v);
const bool: Rule = (v) => typeof v === 'boolean';
const any: Rule = () => true;
const obj: Rule = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
const is =
  (...xs: unknown[]): Rule =>
  (v) =>
    xs.includes(v);
const strs: Rule = (v) => Array.isArray(v) && v.every(str);
const orNull =
  (r: Rule): Rule =>
  (v) =>
    v === null || r(v);

/** Fields every action may carry (what fix wrote back on an earlier run is refused later by the re-derivation). */
const BASE: Record<string, Rule> = {
  status: is('planned', 'done', 'failed', 'skipped'),
  error: str,
  backup: str,
  reason: str,
  output: str,
};
const EDIT = { host: str, path: str, key: str, diff: str, base_sha256: str };
const API = { method: is('PUT'), api_path: str, body: any };

/** Per action type: its fields and which of them are optional. */
const KINDS: Record<ActionType, { fields: Record<string, Rule>; optional: string[] }> = {
  'put-document': {
    fields: { ...API, op_type: is('create'), if_seq_no: num, if_primary_term: num },
    optional: ['op_type', 'if_seq_no', 'if_primary_term'],
  },
  'set-yaml': { fields: { ...EDIT, value: (v) => str(v) || num(v) || bool(v) }, optional: ['base_sha256'] },
  'set-hosts': { fields: { ...EDIT, value: strs }, optional: ['base_sha256'] },
  'remove-plugin': { fields: { host: str, value: str, command: str }, optional: [] },
  'remove-keystore-entry': {
    fields: { host: str, key: str, command: str, if_present: bool },
    optional: ['if_present'],
  },
  'restart-service': { fields: { host: str, service: str, command: str }, optional: [] },
  'put-settings': { fields: API, optional: [] },
  'verify-shards': { fields: { method: is('GET'), api_path: str }, optional: [] },
  'reset-allocation': { fields: API, optional: [] },
};

/** What is wrong with one action, each naming its JSON path; empty when it is well formed. */
export function actionProblems(a: unknown, at: string): string[] {
  if (!obj(a)) return [`${at}: not an action object`];
  const x = a as Record<string, unknown>;
  const kind = KINDS[x.type as ActionType];
  if (typeof x.type !== 'string' || !Object.hasOwn(KINDS, x.type) || !kind)
    return [`${at}.type: ${JSON.stringify(x.type)} is not an action smdoctor plans`];
  const fields: Record<string, Rule> = { type: str, ...BASE, ...kind.fields };
  const out: string[] = [];
  for (const [k, v] of Object.entries(x)) {
    const rule = fields[k];
    if (!rule) out.push(`${at}.${k}: unknown field of a ${x.type} action`);
    else if (!rule(v)) out.push(`${at}.${k}: ${JSON.stringify(v)?.slice(0, 60)} is not a valid value`);
  }
  for (const k of Object.keys(kind.fields))
    if (!kind.optional.includes(k) && !(k in x)) out.push(`${at}.${k}: missing from a ${x.type} action`);
  if (!('status' in x)) out.push(`${at}.status: missing`);
  return out;
}

const PIN_NODE: Record<string, Rule> = { name: str, ip: str, roles: strs };
const SETTINGS: Rule = (v) => v === null || (obj(v) && exact(v, { persistent: obj, transient: obj }).length === 0);
const PINS: Record<string, Rule> = {
  nodes: (v) => Array.isArray(v) && v.every((n) => obj(n) && exact(n, PIN_NODE).length === 0),
  elected_manager: orNull(str),
  cluster_settings: SETTINGS,
  index_settings: orNull(obj),
};

/** Exactly these fields, each valid: the names of the wrong ones. */
function exact(v: unknown, fields: Record<string, Rule>): string[] {
  const x = v as Record<string, unknown>;
  const wrong = Object.keys(x).filter((k) => !fields[k] || !fields[k](x[k]));
  return [...wrong, ...Object.keys(fields).filter((k) => !(k in x))];
}

/** What is wrong with a cluster's pins: each missing, unknown or invalid one named. */
export function pinProblems(p: unknown, at: string): string[] {
  if (!obj(p)) return [`${at}: missing (the REST API could not be read at audit time): run audit again`];
  return exact(p, PINS).map((k) => `${at}.${k}: ${k in (p as object) ? 'unknown or invalid' : 'missing'}`);
}

/** Every problem of the plan's clusters (pins, actions), by JSON path. */
export function planProblems(clusters: unknown[]): string[] {
  const out: string[] = [];
  clusters.forEach((c, i) => {
    const at = `clusters[${i}]`;
    if (!obj(c) || !str((c as { api_url?: unknown }).api_url)) return out.push(`${at}: a cluster without api_url`);
    const x = c as { pins?: unknown; actions?: unknown; checks?: unknown };
    out.push(...pinProblems(x.pins, `${at}.pins`));
    if (x.actions !== undefined && !Array.isArray(x.actions)) out.push(`${at}.actions: not a list`);
    else (x.actions ?? []).forEach((a, j) => out.push(...actionProblems(a, `${at}.actions[${j}]`)));
    if (!Array.isArray(x.checks)) return out.push(`${at}.checks: not a list`);
    x.checks.forEach((k: unknown, j) => {
      const acts = obj(k) ? (k as { actions?: unknown }).actions : undefined;
      if (!Array.isArray(acts)) return out.push(`${at}.checks[${j}].actions: not a list`);
      acts.forEach((a, n) => out.push(...actionProblems(a, `${at}.checks[${j}].actions[${n}]`)));
      return undefined;
    });
    return undefined;
  });
  return out;
}
