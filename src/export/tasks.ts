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

/** Jinja (and YAML) would read these in a literal written into the playbook: such a plan is refused, not escaped. */
const JINJA = /\{\{|\{%|\{#|\}\}|%\}|#\}/;

export class UnsafeText extends Error {}

/** A plan value written as is into the playbook: it must not be read as a template. */
export function literal(s: string, what: string): string {
  if (JINJA.test(s))
    throw new UnsafeText(`${what} holds template delimiters ({{, {%, {#): it cannot be written into a playbook as is`);
  return s;
}

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
  method: 'GET' | 'PUT' | 'POST',
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

/** The module for a planned command: `command` when it needs no shell, else `shell`, exactly as smdoctor runs it. */
export function commandTask(cmd: string, what: string): Record<string, unknown> {
  const text = literal(cmd, what);
  return /[|&;<>()$`\\"'*?[\]#~=%\n!{}]/.test(text)
    ? { 'ansible.builtin.shell': { cmd: text } }
    : { 'ansible.builtin.command': { cmd: text } };
}

/** True when any registered result in the list changed (a missing one, e.g. skipped by tags, did not). */
export function anyChanged(regs: string[]): string {
  return regs.length ? regs.map((r) => `(${r} | default({})) is changed`).join(' or ') : 'false';
}
