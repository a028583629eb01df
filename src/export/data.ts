/**
 * files/cluster-N.json: every value of the plan the play needs (pins, bodies, paths, commands, findings), read with a
 * `file` lookup. Text from a node, the API, the inventory or the plan file is written here, never into site.yml.
 */
import { ALLOCATION_KEY, type Action, type ClusterReport } from '../model/index.ts';
import { editSrc } from './changes.ts';
import type { EditedFile } from './edits.ts';
import type { PlanStep } from './steps.ts';
import { allClusterPuts, clusterPut, isClusterPut, type ClusterPut } from './cluster-puts.ts';

const without = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== ALLOCATION_KEY));

/** Where the plan came from: shown by the play, kept out of site.yml's header. */
export interface PlanSource {
  file: string;
  generated_at: string | null;
  version: string;
}

/** The text fields of one step the tasks read as `smd_plan.steps['N'].<field>`. */
function stepFields(st: PlanStep): Record<string, unknown> {
  const a = st.action;
  const out: Record<string, unknown> = { check: st.check, ...(st.finding ? { finding: st.finding } : {}) };
  if (a.host) out.host = a.host;
  switch (a.type) {
    case 'set-yaml':
    case 'set-hosts':
      return {
        ...out,
        path: a.path,
        what: `${a.key} in ${a.path}`,
        src: editSrc(a),
        base_sha256: a.base_sha256 ?? '',
        diff_lines: a.diff.split('\n'),
      };
    case 'remove-plugin':
    case 'remove-keystore-entry':
      return { ...out, command: a.command, list_command: a.command.replace(/ remove \S+$/, ' list') };
    case 'restart-service':
      return { ...out, command: a.command };
    case 'verify-shards':
      return { ...out, api_path: a.api_path, index: a.api_path.replace(/^\/_cat\/shards\//, '').replace(/\?.*$/, '') };
    default:
      return { ...out, api_path: a.api_path };
  }
}

export function planData(
  clusterReport: ClusterReport,
  steps: PlanStep[],
  edits: Map<Action, EditedFile>,
  source: PlanSource,
): unknown {
  const p = clusterReport.pins!;
  const bodies: Record<string, unknown> = {};
  const after: Record<string, string> = {};
  const fields: Record<string, unknown> = {};
  const puts: Record<string, ClusterPut> = { all: allClusterPuts(steps) };
  for (const st of steps) {
    const a = st.action;
    if (isClusterPut(st) && 'body' in a) puts[st.n] = clusterPut(a.body);
    if ('body' in a && a.body !== undefined) bodies[st.n] = a.body;
    const e = edits.get(a);
    if (e) after[st.n] = e.after;
    fields[st.n] = stepFields(st);
  }
  return {
    plan: source,
    name: clusterReport.name,
    api_url: clusterReport.api_url,
    nodes: p.nodes.map((n) => `${n.name} ${n.ip} ${n.roles.join(',')}`),
    elected_manager: p.elected_manager ?? '',
    cluster_settings: p.cluster_settings,
    cluster_settings_reset: p.cluster_settings
      ? { persistent: without(p.cluster_settings.persistent), transient: without(p.cluster_settings.transient) }
      : null,
    index_settings: p.index_settings,
    bodies,
    cluster_puts: puts,
    after,
    steps: fields,
  };
}
