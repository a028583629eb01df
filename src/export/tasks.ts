/** The playbook as data: tasks with the comment shown above them, and the names and expressions they share. */
import type { ClusterReport } from '../model/index.ts';

/** One task (or block) of a play; `comment` is written above it as YAML comments. */
export interface PlayTask {
  comment?: string;
  /** An ansible-lint rule this task breaks on purpose (the comment says why): written as `# noqa:` on its name. */
  noqa?: string;
  task: Record<string, unknown>;
}

/** What the tasks of one cluster share: their variable prefix and the registered results of changes per host. */
export interface ClusterScope {
  /** 1-based position of the cluster in the plan: prefixes every variable (`c1_`), since facts outlive a play. */
  index: number;
  cluster: ClusterReport;
  /** Registered variables of the changes on each host, in order: a restart runs when one of them changed. */
  changesOn: Map<string, string[]>;
  /** The "still to do" expressions of the changes on each host: what check mode says a restart would follow. */
  pendingOn: Map<string, string[]>;
  /** Engine restarts planned with no change of their host: they run while the node still runs the old state. */
  restartOnly: Set<number>;
  /** Expression of the unassigned shards a settled yellow may keep: what the pre-flight saw. */
  baseline: string;
}

export const v = (scope: ClusterScope, name: string): string => `c${scope.index}_${name}`;

/** A value that cannot be written into a playbook, even as data: the export is refused. */
export class UnsafeText extends Error {}

/**
 * A plan value as the play reads it from files/cluster-N.json at run time (an expression): its text never becomes
 * playbook YAML, Jinja or a comment, whatever it holds.
 */
export const stepVal = (n: number, field: string): string => `smd_plan.steps['${n}'].${field}`;

/** The same value as a templated string (a module argument, a message, the end of a task name). */
export const stepText = (n: number, field: string): string => `{{ ${stepVal(n, field)} }}`;

/** A name the playbook puts inside a Jinja expression (plugin, keystore key, node, host): plain characters only. */
export function word(s: string, what: string): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9._:@-]*$/.test(s))
    throw new UnsafeText(`${what} '${s}' is not a plain name: it cannot be written into a playbook expression`);
  return s;
}

/** A Jinja string literal of a plain name. */
export const q = (s: string): string => `'${s}'`;

/** `uri` call of the cluster's API; the connection settings come from the play's module_defaults. */
export function uri(
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  path: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    'ansible.builtin.uri': {
      url: `{{ smd_api_url }}${path}`,
      method,
      ...extra,
    },
    // the request carries the API password: hidden unless the operator asks (-e smd_hide=false)
    no_log: '{{ smd_hide }}',
  };
}

/** Read-only: runs in check mode too, changes nothing. */
export const readOnly = { check_mode: false, changed_when: false };

/**
 * The module for a planned command: `command` when it needs no shell, else `shell`, exactly as smdoctor runs it; the
 * command itself is read from the data file (`field` of step `n`).
 */
export function commandTask(cmd: string, n: number, field = 'command'): Record<string, unknown> {
  const module = /[|&;<>()$`\\"'*?[\]#~=%\n!{}]/.test(cmd) ? 'ansible.builtin.shell' : 'ansible.builtin.command';
  return { [module]: { cmd: stepText(n, field) } };
}

/** True when any registered result in the list changed (a missing one, e.g. skipped by tags, did not). */
export function anyChanged(regs: string[]): string {
  return regs.length ? regs.map((r) => `(${r} | default({})) is changed`).join(' or ') : 'false';
}

/**
 * A task that runs on a node. `delegate_facts` keeps the facts ansible learns there (its Python, when the inventory
 * leaves interpreter discovery on) on that node: without it ansible 2.14 probes the node again before each such task.
 */
export const onNode = (host: string): { delegate_to: string; delegate_facts: true } => ({
  delegate_to: word(host, 'host'),
  delegate_facts: true,
});
