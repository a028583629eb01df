/** What is still to do for each step, in Jinja over the pins the play has read: a rerun does only what is left. */
import { ALLOCATION_KEY, SM_PLUGINS, LIMITS_INDEX } from '../model/index.ts';
import type { PlanStep } from './steps.ts';
import { q, stepVal, v, word, type ClusterScope } from './tasks.ts';
import { toolList } from './removals.ts';
import { unhandled } from '../base/errors.ts';
import { clusterPutApplied, isClusterPut } from './cluster-puts.ts';

/** The node name of an inventory host, as the API lists it. */
export const nodeName = (scope: ClusterScope, host: string): string =>
  word(scope.cluster.nodes.find((n) => n.host === host)?.name ?? host, 'node name');

const ALLOC = `'${ALLOCATION_KEY}'`;

/** Each step's "still to do" expression (null: always runs, or nothing to tell), known once the pins are read. */
export function pendingExpr(s: ClusterScope, st: PlanStep): string | null {
  const a = st.action;
  const r = (x: string) => v(s, `${x}${st.n}`);
  switch (a.type) {
    case 'set-yaml':
    case 'set-hosts':
      return `${r('stat')}.stat.checksum | default('') == ${stepVal(st.n, 'base_sha256')}`;
    case 'put-document':
      return a.op_type === 'create'
        ? `${r('doc')}.status == 404`
        : `${r('doc')}.status == 200 and ${r('doc')}.json._seq_no == ${a.if_seq_no} and ${r('doc')}.json._primary_term == ${a.if_primary_term}`;
    case 'remove-plugin':
    case 'remove-keystore-entry':
      return `${q(a.type === 'remove-plugin' ? word(a.value, 'plugin') : word(a.key, 'keystore entry'))} in ${toolList(s, a)}.stdout_lines | map('trim')`;
    case 'put-settings':
      // a pack's cluster setting is in place when the cluster settings show it, not the limits index's settings
      return `not (${isClusterPut(st) ? clusterPutApplied(s, st.n) : indexApplied(s, st.n)})`;
    case 'restart-service':
      return s.restartOnly.has(st.n) ? runningOld(s, nodeName(s, a.host)) : null;
    case 'reset-allocation':
      return `${v(s, 'cs')}.json.persistent[${ALLOC}] is defined or ${v(s, 'cs')}.json.transient[${ALLOC}] is defined`;
    case 'verify-shards':
      return null;
    default:
      return unhandled(a, 'action');
  }
}

/** The node still runs with node_with_sme=true or a job-scheduler plugin: what a restart planned on its own is for. */
export function runningOld(s: ClusterScope, node: string): string {
  const attr = `${v(s, 'attrs')}.json | selectattr('node', 'equalto', ${q(node)}) | selectattr('attr', 'equalto', 'node_with_sme') | selectattr('value', 'equalto', 'true') | list | length > 0`;
  const plugins = `${v(s, 'cplugins')}.json | selectattr('name', 'equalto', ${q(node)}) | selectattr('component', 'in', [${SM_PLUGINS.map(q).join(', ')}]) | list | length > 0`;
  return `(${attr}) or (${plugins})`;
}

export const settingsOf = (s: ClusterScope) => `${v(s, 'is')}.json[${q(LIMITS_INDEX)}].settings`;
export const indexApplied = (s: ClusterScope, n: number) =>
  `${v(s, 'is')}.status == 200 and (${settingsOf(s)} | combine(smd_plan.bodies['${n}'], recursive=True)) == ${settingsOf(s)}`;
