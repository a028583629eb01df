/** What changed since a reviewed plan: node set and elected manager, settings, every file and document it will touch. */
import type { Action, ActionOf, ClusterPins, ClusterReport } from '../model/index.ts';
import type { ClusterApi } from '../cluster/types.ts';
import type { Transport } from '../transport/types.ts';
import { sha256 } from '../checks/util.ts';
import { errText } from '../errors.ts';

const canon = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x)
      ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : x,
  );

/** Every difference between the pinned and the current cluster, one line each. Pure. */
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
  if (canon(was.cluster_settings) !== canon(now.cluster_settings))
    out.push(`cluster settings changed: ${canon(was.cluster_settings)} → ${canon(now.cluster_settings)}`);
  if (canon(was.index_settings) !== canon(now.index_settings)) out.push('limits index settings changed');
  return out;
}

/** A file the plan edits: its content must still hash to what the plan was computed from. */
async function fileDrift(
  a: ActionOf<'set-yaml' | 'set-hosts'> & { base_sha256: string },
  transport: (host: string) => Promise<Transport>,
): Promise<string | null> {
  try {
    const t = await transport(a.host);
    const text = await t.readFile(a.path, { privileged: true });
    if (text === null) return `${a.host}:${a.path} no longer exists`;
    return sha256(text) === a.base_sha256
      ? null
      : `${a.host}:${a.path} changed since the plan (sha256 ${a.base_sha256.slice(0, 12)}… → ${sha256(text).slice(0, 12)}…)`;
  } catch (err) {
    return `${a.host}:${a.path} could not be read: ${errText(err)}`;
  }
}

/** A document the plan writes: the same `_seq_no`/`_primary_term`, or still absent. */
async function docDrift(a: ActionOf<'put-document'>, api: ClusterApi): Promise<string | null> {
  const r = await api.request<{ _seq_no?: number; _primary_term?: number }>({ method: 'GET', path: a.api_path });
  if (a.op_type === 'create') return r.statusCode === 404 ? null : `document ${a.api_path} appeared since the plan`;
  if (r.statusCode === 404) return `document ${a.api_path} was deleted since the plan`;
  const same = r.body?._seq_no === a.if_seq_no && r.body?._primary_term === a.if_primary_term;
  return same
    ? null
    : `document ${a.api_path} changed since the plan (seq_no/primary_term ${a.if_seq_no}/${a.if_primary_term} → ${r.body?._seq_no}/${r.body?._primary_term})`;
}

export async function clusterDrift(
  c: ClusterReport,
  now: ClusterPins,
  api: ClusterApi,
  transport: (host: string) => Promise<Transport>,
  actions: Action[],
): Promise<string[]> {
  const out = pinDrift(c.pins!, now);
  for (const a of actions) {
    let why: string | null = null;
    if ((a.type === 'set-yaml' || a.type === 'set-hosts') && a.base_sha256 !== undefined)
      why = await fileDrift({ ...a, base_sha256: a.base_sha256 }, transport);
    else if (a.type === 'put-document') why = await docDrift(a, api);
    if (why) out.push(why);
  }
  return out;
}
