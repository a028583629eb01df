/** One play per cluster: the API's connection from inventory variables, the pins, then the plan's steps in fix's order. */
import type { Action, ClusterReport } from '../model/index.ts';
import { isDataRole } from '../facts/roles.ts';
import { apiTask, editTask } from './changes.ts';
import type { EditedFile } from './edits.ts';
import { waitSettled } from './health.ts';
import { pendingExpr } from './pending.ts';
import { pinTasks } from './pins.ts';
import { removalTask } from './removals.ts';
import { restartTasks } from './rolling.ts';
import { planSteps, type PlanStep } from './steps.ts';
import { v, word, type ClusterScope, type PlayTask } from './tasks.ts';
import { planData, type PlanSource } from './data.ts';
import { LEASE_SECONDS, LEASE_UNTIL, releaseLease, renewLease, takeLease } from './lease.ts';
import { unhandled } from '../base/errors.ts';

export interface PlayOptions {
  /** The inventory host whose variables give the API's address and credentials. */
  apiHost: string;
  edits: Map<Action, EditedFile>;
  /** Seconds: one request's timeout; waits get 5 times as long, as in fix. */
  timeout: number;
  allowYellow: boolean;
  source: PlanSource;
}

export interface ClusterPlay {
  play: Record<string, unknown>;
  /** Comment above each task of the block that holds the pins and steps (the last task of the play), by index. */
  comments: Array<string | undefined>;
  /** The ansible-lint rule each task breaks on purpose, by task index. */
  noqa: Array<string | undefined>;
  /** Name under files/ → its JSON: the pins and bodies, read by the play (never templated). */
  data: { name: string; json: unknown };
}

const API_PASSWORD =
  "{{ lookup('ansible.builtin.file', hostvars[smd_api_host].api_password_file) if hostvars[smd_api_host].api_password_file is defined" +
  " else (lookup('ansible.builtin.env', hostvars[smd_api_host].api_password_env | default('SMDOCTOR_API_PASSWORD'))" +
  ' or hostvars[smd_api_host].api_password | default(omit)) }}';

function stepTasks(scope: ClusterScope, st: PlanStep, o: PlayOptions, dataNodes: string[]): PlayTask[] {
  const a = st.action;
  const note = (reg: string) => {
    if (!a.host) return;
    scope.changesOn.set(a.host, [...(scope.changesOn.get(a.host) ?? []), reg]);
    const p = pendingExpr(scope, st);
    if (p) scope.pendingOn.set(a.host, [...(scope.pendingOn.get(a.host) ?? []), `(${p})`]);
  };
  switch (a.type) {
    case 'set-yaml':
    case 'set-hosts': {
      note(v(scope, `r${st.n}`));
      const e = o.edits.get(a);
      if (!e) throw new Error(`step ${st.n}: the new content of ${a.host}:${a.path} was not read`);
      return editTask(scope, { ...st, action: a }, e.secret);
    }
    case 'remove-plugin':
    case 'remove-keystore-entry':
      note(v(scope, `r${st.n}`));
      return [removalTask(scope, { ...st, action: a })];
    case 'restart-service':
      return restartTasks(scope, { ...st, action: a });
    case 'reset-allocation': {
      const reset = apiTask(scope, { ...st, action: a }, dataNodes);
      // fix's pre-flight comes after a reset: the cluster gets time to settle, then is judged
      scope.baseline = `(0 if ${v(scope, 'preflight')}.json.status == 'green' else ${v(scope, 'preflight')}.json.unassigned_shards)`;
      const wait = waitSettled(
        scope.cluster,
        'Pre-flight | the cluster settles after the reset',
        v(scope, 'preflight'),
        '999999999',
      );
      return [reset, { task: wait }];
    }
    case 'put-document':
    case 'put-settings':
    case 'verify-shards':
      return [apiTask(scope, { ...st, action: a }, dataNodes)];
    default:
      return unhandled(a, 'action');
  }
}

/** Tags added; a block's own sections stay last, in the order ansible-lint expects. */
function tagged(t: PlayTask, tags: string[]): PlayTask {
  const { block, always, ...rest } = t.task;
  return {
    ...t,
    task: { ...rest, tags, ...(block !== undefined ? { block } : {}), ...(always !== undefined ? { always } : {}) },
  };
}

export function clusterPlay(c: ClusterReport, index: number, o: PlayOptions): ClusterPlay | null {
  const steps = planSteps(c);
  if (!steps.length) return null;
  const health = `c${index}_health`;
  const s: ClusterScope = {
    index,
    cluster: c,
    changesOn: new Map(),
    pendingOn: new Map(),
    restartOnly: new Set(),
    baseline: `(0 if ${health}.json.status == 'green' else ${health}.json.unassigned_shards)`,
  };
  const dataNodes = (c.pins?.nodes ?? []).filter((n) => n.roles.some(isDataRole)).map((n) => word(n.name, 'node name'));
  const tasks: PlayTask[] = pinTasks(s, steps).map((t) => tagged(t, ['always']));
  for (const st of steps) {
    tasks.push({ task: renewLease(s, st.n) });
    const first = stepTasks(s, st, o, dataNodes);
    const what = st.check === 'cluster' ? 'the cluster itself' : `check ${st.check}`;
    first[0] = {
      ...first[0]!,
      // the finding's own text is in the data file: a comment carries smdoctor's words only
      comment: [
        first[0]!.comment,
        `${what}${st.finding ? ` (its finding: steps.${st.n}.finding in files/cluster-${index}.json)` : ''}`,
      ]
        .filter(Boolean)
        .join('\n'),
    };
    tasks.push(...first.map((t) => tagged(t, [st.check, st.action.type])));
  }
  const data = `cluster-${index}.json`;
  return {
    play: {
      name: `Smdoctor plan for cluster ${index} (files/cluster-${index}.json): the pins, then ${steps.length} steps in order`,
      hosts: 'localhost',
      gather_facts: false,
      // a failed pin or step stops the run: nothing more changes anywhere
      any_errors_fatal: true,
      vars: {
        smd_api_host: word(o.apiHost, 'host'),
        smd_api_url: '{{ hostvars[smd_api_host].api_url | default(smd_plan.api_url) }}',
        smd_plan: `{{ lookup('ansible.builtin.file', '${data}') | from_json }}`,
        smd_allow_yellow: o.allowYellow,
        smd_wait_delay: 2,
        smd_wait_retries: Math.ceil((5 * o.timeout) / 2),
        smd_hide: true,
        smd_timeout: o.timeout,
        smd_lease_seconds: LEASE_SECONDS,
        smd_lease_until: LEASE_UNTIL,
        smd_api_password: API_PASSWORD,
      },
      module_defaults: {
        'ansible.builtin.uri': {
          url_username: '{{ hostvars[smd_api_host].api_username | default(omit) }}',
          url_password: '{{ smd_api_password }}',
          force_basic_auth: true,
          ca_path: '{{ hostvars[smd_api_host].api_ca_file | default(omit) }}',
          validate_certs: '{{ not (hostvars[smd_api_host].api_insecure | default(false) | bool) }}',
          timeout: '{{ smd_timeout }}',
        },
      },
      tasks: [
        ...takeLease(s),
        {
          name: 'Smdoctor plan | the pins, then the steps, under the fix lease',
          block: tasks.map((t) => t.task),
          always: [releaseLease(s)],
        },
      ],
    },
    comments: tasks.map((t) => t.comment),
    noqa: tasks.map((t) => t.noqa),
    data: { name: data, json: planData(c, steps, o.edits, o.source) },
  };
}
