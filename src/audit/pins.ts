/** What a reviewed plan pins of a cluster, from the REST facts: node set and elected manager, settings. Pure. */
import { splitRoles } from '../facts/roles.ts';
import type { ApiAnswer, ApiFacts, CatRow, ClusterPins, Finding, Action } from '../model/index.ts';
import { ALLOCATION_KEY, LIMITS_INDEX } from '../model/index.ts';
import { ClusterSettings, SettingsAnswer, shaped } from '../cluster/shapes.ts';

function settingsOf(a: ApiAnswer | undefined): ClusterPins['cluster_settings'] {
  if (a?.statusCode !== 200 || typeof a.body !== 'object' || a.body === null) return null;
  const b = shaped(ClusterSettings, a.body, 'GET /_cluster/settings');
  return { persistent: b.persistent ?? {}, transient: b.transient ?? {} };
}

function indexSettingsOf(a: ApiAnswer | undefined): Record<string, unknown> | null {
  if (a?.statusCode !== 200 || typeof a.body !== 'object' || a.body === null) return null;
  const first = Object.values(shaped(SettingsAnswer, a.body, `GET /${LIMITS_INDEX}/_settings`))[0];
  const s = { ...(first?.settings ?? {}) };
  return s;
}

export function pinsOf(api: Pick<ApiFacts, 'nodes' | 'clusterSettings' | 'limitsSettings'>): ClusterPins {
  const rows: CatRow[] = api.nodes;
  return {
    nodes: rows
      .map((r) => ({ name: r.name ?? '', ip: r.ip ?? '', roles: splitRoles(r['node.roles']).sort() }))
      .sort((a, b) => (a.name < b.name ? -1 : 1)),
    elected_manager: rows.find((r) => r.cluster_manager === '*')?.name ?? null,
    cluster_settings: settingsOf(api.clusterSettings),
    index_settings: indexSettingsOf(api.limitsSettings),
  };
}

/** An allocation setting (ALLOCATION_KEY) other than `all` left on the cluster: a note and the action that resets it. */
export function allocationLeftover(pins: ClusterPins): { note: Finding; action: Action } | null {
  const s = pins.cluster_settings;
  if (!s) return null;
  const p = s.persistent[ALLOCATION_KEY];
  const t = s.transient[ALLOCATION_KEY];
  const effective = t ?? p ?? 'all';
  if (effective === 'all') return null;
  return {
    note: {
      kind: 'note',
      message: `${ALLOCATION_KEY} is ${JSON.stringify(effective)}, not "all": replicas are not allocated (often left behind by a failed rolling restart); fix resets it first`,
      evidence: { kind: 'allocation-not-all', persistent: p ?? null, transient: t ?? null },
    },
    action: {
      type: 'reset-allocation',
      method: 'PUT',
      api_path: '/_cluster/settings',
      body: { persistent: { [ALLOCATION_KEY]: null }, transient: { [ALLOCATION_KEY]: null } },
      status: 'planned',
    },
  };
}
