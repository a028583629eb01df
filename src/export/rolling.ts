/**
 * restart-service as the engine's rolling-restart guide says and as smdoctor fix does it: allocation held at
 * `primaries` and a flush (data nodes), the restart, wait until the node is back, the setting put back exactly
 * (in `always:`, so a failed restart restores it too), then wait for green or a settled yellow.
 */
import { ALLOCATION_KEY, type ActionOf } from '../model/index.ts';
import { isDataRole } from '../facts/roles.ts';
import { waitSettled } from './health.ts';
import { pendingExpr } from './pending.ts';
import type { PlanStep } from './steps.ts';
import {
  anyChanged,
  commandTask,
  onNode,
  q,
  stepText,
  uri,
  v,
  word,
  type ClusterScope,
  type PlayTask,
} from './tasks.ts';

type Restart = ActionOf<'restart-service'>;
const K = `'${ALLOCATION_KEY}'`;

export function restartTasks(scope: ClusterScope, st: PlanStep & { action: Restart }): PlayTask[] {
  const a = st.action;
  // a restart follows its host's changes in this run; one planned on its own, the node's running state
  const changed = scope.restartOnly.has(st.n) ? pendingExpr(scope, st)! : anyChanged(scope.changesOn.get(a.host) ?? []);
  const wouldRestart = scope.restartOnly.has(st.n) ? changed : (scope.pendingOn.get(a.host) ?? ['false']).join(' or ');
  const name = `Step ${st.n} | restart ${word(a.service, 'service')} on ${a.host}`;
  const restart = { ...commandTask(a.command, st.n), ...onNode(a.host), changed_when: true };
  if (a.service.endsWith('-dashboards'))
    // the web application is not a cluster member: its restart command's exit code is the whole answer
    return [
      {
        comment: 'Restarted here, in the order of the plan, not at the end of the play as a handler would be.',
        noqa: 'no-handler',
        task: { name, ...restart, when: changed },
      },
    ];
  const node = scope.cluster.nodes.find((x) => x.host === a.host);
  const label = word(node?.name ?? a.host, 'node name');
  const step = `Node ${label}`;
  // a node the audit could not place is treated as holding data: holding allocation is harmless there
  const data = node ? node.roles.some(isDataRole) : true;
  const was = v(scope, `alloc${st.n}`);
  const hold = `{{ {'persistent': {${K}: 'primaries'}} | combine({'transient': {${K}: 'primaries'}} if ${was}.json.transient[${K}] is defined else {}) | to_json }}`;
  const put = `{{ {'persistent': {${K}: ${was}.json.persistent[${K}] | default(none)}, 'transient': {${K}: ${was}.json.transient[${K}] | default(none)}} | to_json }}`;
  const back = v(scope, `back${st.n}`);
  const block: Array<Record<string, unknown>> = [];
  if (data)
    block.push(
      {
        name: `${step} | remember ${ALLOCATION_KEY} (both layers)`,
        ...uri('GET', '/_cluster/settings?flat_settings=true'),
        register: was,
      },
      {
        name: `${step} | hold allocation at primaries (a transient value too, since it would win)`,
        ...uri('PUT', '/_cluster/settings', { body: hold, body_format: 'json' }),
        changed_when: true,
      },
      { name: `${step} | flush`, ...uri('POST', '/_flush'), changed_when: true },
    );
  block.push(
    { name: `${step} | restart ${a.service}`, ...restart },
    {
      name: `${step} | wait until it is back in the cluster`,
      ...uri('GET', '/_cat/nodes?format=json&h=ip,name'),
      register: back,
      until: `${back}.json | selectattr('name', 'equalto', ${q(label)}) | list | length > 0`,
      retries: '{{ smd_wait_retries }}',
      delay: '{{ smd_wait_delay }}',
      changed_when: false,
    },
  );
  const tasks: PlayTask[] = [
    {
      comment: `Rolling restart of ${label}: one node at a time, the elected manager last.${data ? ' The allocation setting is restored exactly in always:, whatever happens.' : ''}`,
      task: {
        name,
        when: `not ansible_check_mode and (${changed})`,
        block,
        ...(data
          ? {
              always: [
                {
                  name: `${step} | put ${ALLOCATION_KEY} back exactly as it was`,
                  ...uri('PUT', '/_cluster/settings', { body: put, body_format: 'json' }),
                  when: `${was}.json is defined`,
                  changed_when: true,
                },
              ],
            }
          : {}),
      },
    },
    {
      task: {
        ...waitSettled(
          scope.cluster,
          `${name}: wait for green (or a settled yellow)`,
          v(scope, `settled${st.n}`),
          scope.baseline,
        ),
        when: `not ansible_check_mode and (${changed})`,
      },
    },
    {
      task: {
        name: `${name}: would restart (check mode)`,
        'ansible.builtin.debug': {
          msg: `would restart ${a.service} on ${a.host} (rolling): ${stepText(st.n, 'command')}`,
        },
        // in check mode nothing changed: what would restart is what is still to do on the host
        when: `ansible_check_mode and (${wouldRestart})`,
      },
    },
  ];
  return tasks;
}
