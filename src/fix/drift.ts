/**
 * A reviewed plan against the plan the audit makes now: the node set, manager and settings it pinned, and every action
 * field by field. Any difference refuses the cluster. Pure.
 */
import type { ClusterPins, ClusterReport, Report } from '../model/index.ts';
import { canonical, ownedActions, type OwnedAction } from './plan-digest.ts';

/** Every difference between the pinned and the current cluster, one line each. */
export function pinDrift(was: ClusterPins, now: ClusterPins): string[] {
  const out: string[] = [];
  const key = (n: ClusterPins['nodes'][number]) => `${n.name} (${n.ip}, ${n.roles.join(',') || 'no roles'})`;
  const before = new Set(was.nodes.map(key));
  const after = new Set(now.nodes.map(key));
  const joined = [...after].filter((k) => !before.has(k));
  const left = [...before].filter((k) => !after.has(k));
  if (joined.length) out.push(`node set changed: joined or changed ${joined.join(', ')}`);
  if (left.length) out.push(`node set changed: left or changed ${left.join(', ')}`);
  if (was.elected_manager !== now.elected_manager)
    out.push(`elected cluster manager changed: ${was.elected_manager ?? 'none'} → ${now.elected_manager ?? 'none'}`);
  if (canonical(was.cluster_settings) !== canonical(now.cluster_settings))
    out.push(`cluster settings changed: ${canonical(was.cluster_settings)} → ${canonical(now.cluster_settings)}`);
  if (canonical(was.index_settings) !== canonical(now.index_settings)) out.push('limits index settings changed');
  return out;
}

/** The two values short enough for one line each, cut around where they first differ; hashes to 12 characters. */
function shown(k: string, a: unknown, b: unknown): [string, string] {
  const one = (v: unknown): string =>
    v === undefined ? 'absent' : k === 'base_sha256' && typeof v === 'string' ? `${v.slice(0, 12)}…` : canonical(v);
  const [x, y] = [one(a), one(b)];
  let at = 0;
  while (at < x.length && x[at] === y[at]) at++;
  const cut = (s: string): string => {
    if (s.length <= 80) return s;
    const from = Math.max(0, at - 20);
    return `${from > 0 ? '…' : ''}${s.slice(from, from + 80)}${from + 80 < s.length ? '…' : ''}`;
  };
  return [cut(x), cut(y)];
}

const label = (o: OwnedAction, n: number): string =>
  `action ${n} (${o.action.type}${o.action.host ? ` on ${o.action.host}` : ''}${o.action.path ? ` ${o.action.path}` : o.action.api_path ? ` ${o.action.api_path}` : ''})`;

/** Field by field, in a fixed order: the action's type first, then its owner, then the rest by name. */
function actionDiff(was: OwnedAction, now: OwnedAction, n: number): string[] {
  const a: Record<string, unknown> = { owner: was.owner, ...was.action };
  const b: Record<string, unknown> = { owner: now.owner, ...now.action };
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort((x, y) =>
    x === 'type' ? -1 : y === 'type' ? 1 : x < y ? -1 : 1,
  );
  const out: string[] = [];
  for (const k of keys) {
    if (canonical(a[k]) === canonical(b[k])) continue;
    const [x, y] = shown(k, a[k], b[k]);
    out.push(`${label(was, n)}: ${k === 'owner' ? 'check' : k} planned ${x}, now ${y}`);
    if (k === 'type') break;
  }
  return out;
}

/** Pairs of equal actions (longest common subsequence): what lies between them was added, removed or changed. */
function matched(a: OwnedAction[], b: OwnedAction[]): Array<[number, number]> {
  const ka = a.map((o) => canonical({ owner: o.owner, ...o.action }));
  const kb = b.map((o) => canonical({ owner: o.owner, ...o.action }));
  const len = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      len[i]![j] = ka[i] === kb[j] ? len[i + 1]![j + 1]! + 1 : Math.max(len[i + 1]![j]!, len[i]![j + 1]!);
  const out: Array<[number, number]> = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (ka[i] === kb[j]) out.push([i++, j++]);
    else if (len[i + 1]![j]! >= len[i]![j + 1]!) i++;
    else j++;
  }
  return out;
}

/** Every difference between a cluster of the reviewed plan and the same cluster as audited now. */
export function planDifferences(was: ClusterReport, now: ClusterReport | undefined): string[] {
  if (!now) return [`the audit now finds no cluster at ${was.api_url}`];
  // an audit's plan has no pins where the REST API could not be read (a reviewed plan always has them)
  const out = !now.pins
    ? was.pins
      ? ['the pins could not be read now (REST API not readable)']
      : []
    : was.pins
      ? pinDrift(was.pins, now.pins)
      : ['the REST API can be read now, and could not be when the plan was made'];
  const a = ownedActions(was);
  const b = ownedActions(now);
  let i = 0;
  let j = 0;
  // between two matched pairs, actions side by side are one changed action; the rest were added or removed
  for (const [mi, mj] of [...matched(a, b), [a.length, b.length] as [number, number]]) {
    for (; i < mi && j < mj; i++, j++) out.push(...actionDiff(a[i]!, b[j]!, i + 1));
    for (; i < mi; i++) out.push(`${label(a[i]!, i + 1)}: planned, but the audit now plans nothing there`);
    for (; j < mj; j++) out.push(`${label(b[j]!, j + 1)}: not in the plan, but the audit now plans it`);
    i++;
    j++;
  }
  return out;
}

/** A plan naming a cluster or host outside the selection (inventory and --limit): each one, before anything is read. */
export function outsideSelection(plan: Report, groups: Array<{ apiUrl: string; hosts: string[] }>): string[] {
  const out: string[] = [];
  for (const c of plan.clusters) {
    const actions = ownedActions(c);
    if (!actions.length) continue;
    const group = groups.find((g) => g.apiUrl === c.api_url);
    if (!group) {
      out.push(`cluster ${c.api_url} has no selected inventory host`);
      continue;
    }
    actions.forEach((o, i) => {
      if (o.action.host !== undefined && !group.hosts.includes(o.action.host))
        out.push(`${label(o, i + 1)}: host ${o.action.host} is not a selected host of ${c.api_url}`);
    });
  }
  return out;
}
