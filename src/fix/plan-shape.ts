/**
 * A plan file's exact shape: every pin present, every action of a known type with only its own fields. The fields are
 * the model's (ACTION_SHAPES, PinsShape); this names every problem by its JSON path, not only the first. Pure.
 */
import * as v from 'valibot';
import { ACTION_SHAPES, PinsShape, type ActionType } from '../model/index.ts';

const obj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const shown = (x: unknown): string => JSON.stringify(x)?.slice(0, 60) ?? String(x);

/** The field an issue is about (its first path step), and whether it was missing or not asked for. */
function field(issue: v.BaseIssue<unknown>): { key: string; absent: boolean; unknown: boolean } {
  const step = issue.path?.[0] as { key?: unknown; origin?: string } | undefined;
  const key = String(step?.key ?? '');
  const absent = issue.input === undefined && issue.expected === `"${key}"`;
  return { key, absent, unknown: !absent && step?.origin === 'key' && issue.expected === 'never' };
}

/** What is wrong with one action, each naming its JSON path; empty when it is well formed. */
export function actionProblems(a: unknown, at: string): string[] {
  if (!obj(a)) return [`${at}: not an action object`];
  if (typeof a.type !== 'string' || !Object.hasOwn(ACTION_SHAPES, a.type))
    return [`${at}.type: ${JSON.stringify(a.type)} is not an action smdoctor plans`];
  const r = v.safeParse(ACTION_SHAPES[a.type as ActionType], a, { abortEarly: false });
  const seen = new Set<string>();
  const out: string[] = [];
  for (const issue of r.issues ?? []) {
    const f = field(issue);
    if (seen.has(f.key)) continue;
    seen.add(f.key);
    if (f.unknown) out.push(`${at}.${f.key}: unknown field of a ${a.type} action`);
    else if (f.absent) out.push(`${at}.${f.key}: missing from a ${a.type} action`);
    else out.push(`${at}.${f.key}: ${shown(a[f.key])} is not a valid value`);
  }
  return out;
}

/** What is wrong with a cluster's pins: each missing, unknown or invalid one named. */
export function pinProblems(p: unknown, at: string): string[] {
  if (!obj(p)) return [`${at}: missing (the REST API could not be read at audit time): run audit again`];
  const keys = new Set((v.safeParse(PinsShape, p, { abortEarly: false }).issues ?? []).map((i) => field(i).key));
  return [...keys].map((k) => `${at}.${k}: ${k in p ? 'unknown or invalid' : 'missing'}`);
}

/** Every problem of the plan's clusters (pins, actions), by JSON path. */
export function planProblems(clusters: unknown[]): string[] {
  const out: string[] = [];
  clusters.forEach((c, i) => {
    const at = `clusters[${i}]`;
    if (!obj(c) || typeof c.api_url !== 'string') return out.push(`${at}: a cluster without api_url`);
    out.push(...pinProblems(c.pins, `${at}.pins`));
    if (c.actions !== undefined && !Array.isArray(c.actions)) out.push(`${at}.actions: not a list`);
    else
      ((c.actions as unknown[] | undefined) ?? []).forEach((a, j) =>
        out.push(...actionProblems(a, `${at}.actions[${j}]`)),
      );
    if (!Array.isArray(c.checks)) return out.push(`${at}.checks: not a list`);
    c.checks.forEach((k: unknown, j) => {
      const acts = obj(k) ? k.actions : undefined;
      if (!Array.isArray(acts)) return out.push(`${at}.checks[${j}].actions: not a list`);
      acts.forEach((a, n) => out.push(...actionProblems(a, `${at}.checks[${j}].actions[${n}]`)));
      return undefined;
    });
    return undefined;
  });
  return out;
}
