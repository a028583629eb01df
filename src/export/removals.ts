/** Plugin and keystore removals: the plan's exact command, only while the tool still lists the name, so a rerun changes nothing. */
import type { ActionOf } from '../model/index.ts';
import { NO_KEYSTORE } from '../model/index.ts';
import { NOT_FOUND } from '../fix/steps-host.ts';
import type { PlanStep } from './steps.ts';
import { commandTask, onNode, v, word, type ClusterScope, type PlayTask } from './tasks.ts';

type Removal = ActionOf<'remove-plugin' | 'remove-keystore-entry'>;

/** The registered `<tool> list` of a host: one per host and tool, read with the pins. */
export const toolList = (scope: ClusterScope, a: Removal): string =>
  v(
    scope,
    `${a.type === 'remove-plugin' ? 'plugins' : 'keystore'}_${word(a.host, 'host').replace(/[^A-Za-z0-9_]/g, '_')}`,
  );

/** The planned command must be `<tool> remove <name>`: its `list` is what tells whether the name is still there. */
export function checkRemoval(a: Removal): void {
  const name = a.type === 'remove-plugin' ? a.value : a.key;
  if (!a.command.endsWith(` remove ${name}`))
    throw new Error(`${a.type} on ${a.host}: the planned command does not end with 'remove ${name}': ${a.command}`);
}

export function removalTask(s: ClusterScope, st: PlanStep & { action: Removal }): PlayTask {
  const a = st.action;
  checkRemoval(a);
  const name = a.type === 'remove-plugin' ? word(a.value, 'plugin') : word(a.key, 'keystore entry');
  const reg = v(s, `r${st.n}`);
  const ok = a.type === 'remove-keystore-entry' ? [0, NOT_FOUND, NO_KEYSTORE] : [0, NOT_FOUND];
  return {
    task: {
      name: `Step ${st.n} | ${a.type} ${name} on ${a.host}`,
      ...commandTask(a.command, st.n),
      ...onNode(a.host),
      when: `'${name}' in ${toolList(s, a)}.stdout_lines | map('trim')`,
      register: reg,
      // the tool's "not found" means someone removed it meanwhile: done, not failed
      failed_when: `${reg}.rc not in [${ok.join(', ')}]`,
      changed_when: `${reg}.rc == 0`,
    },
  };
}
