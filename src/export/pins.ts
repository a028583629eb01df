/**
 * The pins, checked before anything changes: every file's sha256, every document's version, the settings, the node
 * set and elected manager, the cluster's health. Each may be as the plan saw it, or as the plan leaves it (a rerun).
 */
import { LIMITS_INDEX } from '../model/index.ts';
import { isEngineRestart } from '../fix/order.ts';
import { settledExpr } from './health.ts';
import { restartOnly, type PlanStep } from './steps.ts';
import { stepText, stepVal, v, word, type ClusterScope, type PlayTask } from './tasks.ts';
import { readTasks } from './reads.ts';
import { indexApplied, pendingExpr, settingsOf } from './pending.ts';
import { isClusterPut, sameBesidesPuts } from './cluster-puts.ts';

/** The asserts: each pin as planned, or as the plan leaves it; the manager and health matter only while work is left. */
function assertTasks(scope: ClusterScope, steps: PlanStep[]): PlayTask[] {
  const c = scope.cluster;
  const p = c.pins!;
  const checks: Array<[string, string, string]> = [];
  checks.push([
    'the node set (names, addresses, roles)',
    `(${v(scope, 'nodes')}.split('\\n') | reject('equalto', '') | sort(case_sensitive=true)) == (smd_plan.nodes | sort(case_sensitive=true))`,
    `node set changed: {{ ${v(scope, 'nodes')} }} (plan: {{ smd_plan.nodes }})`,
  ]);
  const reset = steps.some((st) => st.action.type === 'reset-allocation');
  if (p.cluster_settings)
    checks.push([
      'the cluster settings',
      // as planned, or as the plan leaves them: its cluster puts made (a rerun), the allocation reset
      [
        sameBesidesPuts(scope, 'smd_plan.cluster_settings'),
        ...(reset ? [sameBesidesPuts(scope, 'smd_plan.cluster_settings_reset')] : []),
      ].join(' or '),
      `cluster settings changed: {{ ${v(scope, 'cs')}.json | to_json }} (plan: {{ smd_plan.cluster_settings | to_json }})`,
    ]);
  const applied = steps
    .filter((st) => st.action.type === 'put-settings' && !isClusterPut(st))
    .map((st) => `(${indexApplied(scope, st.n)})`);
  checks.push([
    `the settings of ${LIMITS_INDEX}`,
    p.index_settings
      ? [`(${v(scope, 'is')}.status == 200 and ${settingsOf(scope)} == smd_plan.index_settings)`, ...applied].join(
          ' or ',
        )
      : `${v(scope, 'is')}.status == 404${steps.some((st) => st.action.type === 'put-document') ? ` or ${v(scope, 'is')}.status == 200` : ''}`,
    `${LIMITS_INDEX} settings changed since the plan`,
  ]);
  for (const st of steps) {
    const a = st.action;
    if (a.type === 'set-yaml' || a.type === 'set-hosts') {
      const r = v(scope, `stat${st.n}`);
      checks.push([
        `the file of step ${st.n} on ${word(a.host, 'host')}`,
        `${r}.stat.exists and ${r}.stat.checksum in [${stepVal(st.n, 'base_sha256')}, smd_plan.after['${st.n}']]`,
        `${a.host}:${stepText(st.n, 'path')} changed since the plan (sha256 {{ ${r}.stat.checksum | default('absent') }}, plan ${stepText(st.n, 'base_sha256')}): run smdoctor audit and export again`,
      ]);
    } else if (a.type === 'put-document') {
      const r = v(scope, `doc${st.n}`);
      checks.push([
        `the document of step ${st.n}`,
        `(${pendingExpr(scope, st)}) or (${r}.status == 200 and ${r}.json._source == smd_plan.bodies['${st.n}'])`,
        a.op_type === 'create'
          ? `document ${stepText(st.n, 'api_path')} appeared since the plan`
          : `document ${stepText(st.n, 'api_path')} changed since the plan (seq_no/primary_term ${a.if_seq_no}/${a.if_primary_term} → {{ ${r}.json._seq_no | default('none') }}/{{ ${r}.json._primary_term | default('none') }})`,
      ]);
    }
  }
  const pending = steps.map((st) => pendingExpr(scope, st)).filter((x): x is string => x !== null);
  const restarts = steps.some((st) => isEngineRestart(st.action));
  const out: PlayTask[] = [
    {
      task: {
        name: 'Pins | the node set as the playbook compares it, and whether any change is left to make',
        'ansible.builtin.set_fact': {
          [v(scope, 'nodes')]:
            `{% for n in ${v(scope, 'cat')}.json %}\n{{- n.name }} {{ n.ip }} {{ (n['node.roles'] | default('', true)).split(',')\n  | map('trim') | reject('in', ['', '-']) | sort(case_sensitive=true) | join(',') }}\n{% endfor %}`,
          [v(scope, 'elected')]:
            `{{ ${v(scope, 'cat')}.json | selectattr('cluster_manager', 'equalto', '*') | map(attribute='name') | first | default('') }}`,
          [v(scope, 'pending')]: `{{ [${pending.map((x) => `(${x})`).join(', ')}] is any }}`,
        },
      },
    },
  ];
  for (const [what, that, msg] of checks)
    out.push({
      task: {
        name: `Pins | ${what} as the plan saw it (or as it leaves it)`,
        'ansible.builtin.assert': { that: [that], fail_msg: msg, quiet: true },
      },
    });
  out.push({
    task: {
      name: 'Pins | the elected cluster manager (the restarts are ordered by it)',
      'ansible.builtin.assert': {
        that: [`${v(scope, 'elected')} == smd_plan.elected_manager or not ${v(scope, 'pending')}`],
        fail_msg: `elected cluster manager changed: {{ ${v(scope, 'elected')} }} (plan: {{ smd_plan.elected_manager }})`,
        quiet: true,
      },
    },
  });
  if (restarts && !steps.some((st) => st.action.type === 'reset-allocation'))
    out.push({
      comment:
        'Pre-flight of the rolling restart: green (or, with smd_allow_yellow, a settled yellow) before anything changes.',
      task: {
        name: 'Pins | the cluster is healthy enough to restart nodes',
        'ansible.builtin.assert': {
          that: [
            `not ${v(scope, 'pending')} or ${settledExpr(c, `${v(scope, 'health')}.json`, `${v(scope, 'health')}.json.unassigned_shards`)}`,
          ],
          fail_msg: `pre-flight: health is {{ ${v(scope, 'health')}.json.status }} ({{ ${v(scope, 'health')}.json.unassigned_shards }} unassigned, {{ ${v(scope, 'health')}.json.initializing_shards }} initializing, {{ ${v(scope, 'health')}.json.relocating_shards }} relocating); set smd_allow_yellow=true to accept a settled yellow`,
          quiet: true,
        },
      },
    });
  return out;
}

export function pinTasks(s: ClusterScope, steps: PlanStep[]): PlayTask[] {
  for (const st of steps) if (restartOnly(steps, st)) s.restartOnly.add(st.n);
  return [...readTasks(s, steps), ...assertTasks(s, steps)];
}
