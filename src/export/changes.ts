/** The changing steps other than restarts and removals: byte-exact file writes and the plan's API calls. */
import type { ActionOf } from '../model/index.ts';
import { pendingExpr } from './pending.ts';
import type { PlanStep } from './steps.ts';
import { UnsafeText, onNode, readOnly, stepText, uri, v, word, type ClusterScope, type PlayTask } from './tasks.ts';

type Edit = ActionOf<'set-yaml' | 'set-hosts'>;

/** Where an edited file's new bytes live under files/: by host, then its absolute path (never a way out of files/). */
export function editSrc(a: Edit): string {
  if (!a.path.startsWith('/') || a.path.split('/').some((seg) => seg === '..' || seg === '.'))
    throw new UnsafeText(
      `${a.host}: the edited file's path is not absolute and plain (it holds . or ..): it cannot be exported`,
    );
  return `hosts/${word(a.host, 'host')}${a.path}`;
}

/** The exact bytes, the file's own mode and owner, a backup beside it; a secret-holding file shows no content. */
export function editTask(scope: ClusterScope, st: PlanStep & { action: Edit }, secret: boolean): PlayTask[] {
  const a = st.action;
  const stat = `${v(scope, `stat${st.n}`)}.stat`;
  const copy: Record<string, unknown> = {
    name: `Step ${st.n} | ${a.type} on ${word(a.host, 'host')}: ${stepText(st.n, 'what')}`,
    'ansible.builtin.copy': {
      src: stepText(st.n, 'src'),
      dest: stepText(st.n, 'path'),
      mode: `{{ ${stat}.mode }}`,
      owner: `{{ ${stat}.pw_name }}`,
      group: `{{ ${stat}.gr_name }}`,
      backup: true,
      // the link's target is written, as fix writes it: the link stays a link
      follow: true,
    },
    ...onNode(a.host),
    register: v(scope, `r${st.n}`),
  };
  if (!secret) return [{ task: copy }];
  // the file holds a secret-named value: its content never reaches the output; the plan's diff is redacted already
  return [
    {
      task: {
        name: `Step ${st.n} | the planned diff on ${a.host} (its secrets blanked): ${stepText(st.n, 'path')}`,
        'ansible.builtin.debug': { msg: stepText(st.n, 'diff_lines') },
        when: `${stat}.checksum != smd_plan.after['${st.n}']`,
      },
    },
    { task: { ...copy, no_log: true, diff: false } },
  ];
}

const when = (s: ClusterScope, st: PlanStep): Record<string, unknown> => {
  const p = pendingExpr(s, st);
  return p ? { when: p } : {};
};

export function apiTask(
  s: ClusterScope,
  st: PlanStep & { action: ActionOf<'put-document' | 'put-settings' | 'reset-allocation' | 'verify-shards'> },
  dataNodes: string[],
): PlayTask {
  const a = st.action;
  const name = `Step ${st.n} | ${a.type} ${a.method} ${stepText(st.n, 'api_path')}`;
  const body = { body: `{{ smd_plan.bodies['${st.n}'] }}`, body_format: 'json' };
  if (a.type === 'put-document') {
    const qs =
      a.op_type === 'create' ? '?op_type=create' : `?if_seq_no=${a.if_seq_no}&if_primary_term=${a.if_primary_term}`;
    // a document that changed since the pins were read is a 409: never overwritten
    return {
      task: {
        name,
        ...uri('PUT', `${stepText(st.n, 'api_path')}${qs}`, { ...body, status_code: [200, 201] }),
        ...when(s, st),
        changed_when: true,
      },
    };
  }
  if (a.type === 'put-settings' || a.type === 'reset-allocation')
    return { task: { name, ...uri('PUT', stepText(st.n, 'api_path'), body), ...when(s, st), changed_when: true } };
  const reg = v(s, `r${st.n}`);
  return {
    task: {
      name: `Step ${st.n} | verify-shards: every data node holds a started copy of ${stepText(st.n, 'index')}`,
      ...uri('GET', `/_cat/shards/${stepText(st.n, 'index')}?format=json&h=index,shard,prirep,state,node`),
      register: reg,
      until: `${reg}.json | selectattr('state', 'equalto', 'STARTED') | map(attribute='node') | list is superset([${dataNodes.map((n) => `'${n}'`).join(', ')}])`,
      retries: '{{ smd_wait_retries }}',
      delay: '{{ smd_wait_delay }}',
      // the copies appear only once the settings change was made: nothing to wait for in check mode
      when: 'not ansible_check_mode',
      ...readOnly,
    },
  };
}
