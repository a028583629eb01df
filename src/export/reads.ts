/** The pins' reads: the API's GETs, each edited file's sha256, the tools' lists. Read-only, in check mode too. */
import { LIMITS_INDEX, type ActionOf } from '../model/index.ts';
import type { PlanStep } from './steps.ts';
import { onNode, readOnly, stepText, uri, v, word, type ClusterScope, type PlayTask } from './tasks.ts';
import { toolList } from './removals.ts';

export function readTasks(scope: ClusterScope, steps: PlanStep[]): PlayTask[] {
  const out: PlayTask[] = [
    {
      comment: 'Pins first: everything the plan depends on is read, and checked, before any change.',
      task: {
        name: 'Pins | read the node set and the elected cluster manager',
        ...uri('GET', '/_cat/nodes?format=json&h=name,ip,node.roles,cluster_manager'),
        register: v(scope, 'cat'),
        ...readOnly,
      },
    },
    {
      task: {
        name: 'Pins | read the cluster settings (both layers)',
        ...uri('GET', '/_cluster/settings?flat_settings=true'),
        register: v(scope, 'cs'),
        ...readOnly,
      },
    },
    {
      task: {
        name: `Pins | read the settings of ${LIMITS_INDEX}`,
        ...uri('GET', `/${LIMITS_INDEX}/_settings`, { status_code: [200, 404] }),
        register: v(scope, 'is'),
        ...readOnly,
      },
    },
    {
      task: {
        name: 'Pins | read the cluster health',
        ...uri('GET', '/_cluster/health'),
        register: v(scope, 'health'),
        ...readOnly,
      },
    },
  ];
  if (scope.restartOnly.size)
    out.push(
      {
        task: {
          name: 'Pins | read the running node attributes (restarts planned on their own)',
          ...uri('GET', '/_cat/nodeattrs?format=json&h=node,attr,value'),
          register: v(scope, 'attrs'),
          ...readOnly,
        },
      },
      {
        task: {
          name: 'Pins | read the running plugins (restarts planned on their own)',
          ...uri('GET', '/_cat/plugins?format=json&h=name,component'),
          register: v(scope, 'cplugins'),
          ...readOnly,
        },
      },
    );
  const lists = new Set<string>();
  for (const st of steps) {
    const a = st.action;
    if (a.type === 'put-document')
      out.push({
        task: {
          name: `Pins | read the document of step ${st.n}: ${stepText(st.n, 'api_path')}`,
          ...uri('GET', stepText(st.n, 'api_path'), { status_code: [200, 404] }),
          register: v(scope, `doc${st.n}`),
          ...readOnly,
        },
      });
    else if (a.type === 'set-yaml' || a.type === 'set-hosts')
      out.push({
        task: {
          name: `Pins | sha256 of the file of step ${st.n} on ${word(a.host, 'host')}: ${stepText(st.n, 'path')}`,
          // a symlinked config is read through its link, as fix reads and edits it
          'ansible.builtin.stat': {
            path: stepText(st.n, 'path'),
            follow: true,
            get_checksum: true,
            checksum_algorithm: 'sha256',
          },
          ...onNode(a.host),
          register: v(scope, `stat${st.n}`),
          check_mode: false,
        },
      });
    else if (a.type === 'remove-plugin' || a.type === 'remove-keystore-entry') {
      const reg = toolList(scope, a);
      if (lists.has(reg)) continue;
      lists.add(reg);
      out.push({ task: listTask(st.n, a, reg) });
    }
  }
  return out;
}

function listTask(
  n: number,
  a: ActionOf<'remove-plugin' | 'remove-keystore-entry'>,
  reg: string,
): Record<string, unknown> {
  const what = a.type === 'remove-plugin' ? 'plugins' : 'keystore entries';
  return {
    name: `Pins | list the ${what} on ${word(a.host, 'host')}`,
    'ansible.builtin.command': { cmd: stepText(n, 'list_command') },
    ...onNode(a.host),
    register: reg,
    // the keystore tool's "no keystore at all" is an empty list
    failed_when: `${reg}.rc not in [0${a.type === 'remove-keystore-entry' ? ', 65' : ''}]`,
    ...readOnly,
  };
}
