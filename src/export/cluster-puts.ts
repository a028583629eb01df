/**
 * A pack's `put_cluster_setting` in the play: the values as `GET _cluster/settings?flat_settings=true` answers them
 * (strings; `null` resets the setting), so "already in place" and the cluster-settings pin compare like with like.
 */
import type { PlanStep } from './steps.ts';
import { v, type ClusterScope } from './tasks.ts';

export const CLUSTER_SETTINGS_PATH = '/_cluster/settings';

/** A put of the persistent settings: what it sets (as the API shows it) and what it resets. */
export interface ClusterPut {
  set: Record<string, string>;
  unset: string[];
}

const flatten = (o: unknown, pre: string, out: Record<string, unknown>): Record<string, unknown> => {
  if (o && typeof o === 'object' && !Array.isArray(o))
    for (const [k, x] of Object.entries(o)) flatten(x, pre ? `${pre}.${k}` : k, out);
  else out[pre] = o;
  return out;
};

/** The API answers every setting as a string: `true` is "true", 5 is "5"; a list as its JSON. */
const asApi = (x: unknown): string => (typeof x === 'string' ? x : JSON.stringify(x));

export const isClusterPut = (st: PlanStep): boolean =>
  st.action.type === 'put-settings' && st.action.api_path === CLUSTER_SETTINGS_PATH;

export function clusterPut(body: unknown): ClusterPut {
  // the plan's own body (remedy.ts builds it), not an API answer
  const persistent = body && typeof body === 'object' && 'persistent' in body ? body.persistent : undefined;
  const flat = flatten(persistent ?? {}, '', {});
  const out: ClusterPut = { set: {}, unset: [] };
  for (const [k, x] of Object.entries(flat))
    if (x === null) out.unset.push(k);
    else out.set[k] = asApi(x);
  return out;
}

/** Every cluster put of the plan in order, as one: what the plan leaves in the persistent settings. */
export function allClusterPuts(steps: PlanStep[]): ClusterPut {
  const out: ClusterPut = { set: {}, unset: [] };
  for (const st of steps.filter(isClusterPut)) {
    const p = clusterPut('body' in st.action ? st.action.body : undefined);
    for (const k of p.unset) delete out.set[k];
    out.unset = [...out.unset.filter((k) => !(k in p.set)), ...p.unset];
    Object.assign(out.set, p.set);
  }
  return out;
}

/** Jinja: the persistent settings of X (an expression) with a put applied (data at smd_plan.cluster_puts[KEY]). */
const applied = (x: string, key: string) =>
  `(${x}.persistent | dict2items | rejectattr('key', 'in', smd_plan.cluster_puts['${key}'].unset) | items2dict | combine(smd_plan.cluster_puts['${key}'].set))`;

/** Jinja: the step's put is in place in what the pins read. */
export const clusterPutApplied = (s: ClusterScope, n: number): string =>
  `${applied(`${v(s, 'cs')}.json`, String(n))} == ${v(s, 'cs')}.json.persistent`;

/** Jinja: the settings read equal PLAN (an expression) once every cluster put of the plan is applied to both. */
export const sameBesidesPuts = (s: ClusterScope, plan: string): string =>
  `(${applied(`${v(s, 'cs')}.json`, 'all')} == ${applied(plan, 'all')} and ${v(s, 'cs')}.json.transient == ${plan}.transient)`;
