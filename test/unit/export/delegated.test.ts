/**
 * Every task the playbook runs on a node keeps its facts there (`delegate_facts`): with interpreter discovery on, as
 * an inventory without ansible_python_interpreter leaves it, ansible then probes each node once a run, not before
 * each task delegated to it (two SSH sessions and a Python on the node each time).
 */
import t from 'tap';
import { parse } from 'yaml';
import type { Action } from '../../../src/model/index.ts';
import { D1, M1, cluster, edit, report, restart, run, type Task } from '../../helpers/export/plan-fixtures.ts';

/** Every task of every play, blocks opened (block, rescue, always). */
function allTasks(tasks: Task[]): Task[] {
  return tasks.flatMap((x) => [
    x,
    ...(['block', 'rescue', 'always'] as const).flatMap((k) => (Array.isArray(x[k]) ? allTasks(x[k] as Task[]) : [])),
  ]);
}

const removePlugin: Action = {
  type: 'remove-plugin',
  host: 'm1',
  value: 'sm-sigma',
  command: 'sudo -n /app/opensearch/bin/opensearch-plugin remove sm-sigma',
  status: 'planned',
};

t.test('each task delegated to a node keeps its facts on that node', async (t) => {
  const plan = report(cluster([edit('m1', M1), removePlugin, restart('m1'), edit('d1', D1), restart('d1')]));
  const out = await run(plan, { m1: M1, d1: D1 });
  if (!out.ok) throw new Error(out.problems.join('; '));
  const site = out.files.find((f) => f.path === 'site.yml')!.content as string;
  const plays = parse(site) as Array<{ tasks: Task[] }>;
  const onNodes = plays.flatMap((p) => allTasks(p.tasks)).filter((x) => x.delegate_to !== undefined);
  const kinds = new Set(onNodes.map((x) => Object.keys(x).find((k) => k.startsWith('ansible.builtin.'))));
  t.same(
    [...kinds].sort(),
    ['ansible.builtin.command', 'ansible.builtin.copy', 'ansible.builtin.stat'],
    'pins, edits, removals and restarts run on the nodes',
  );
  t.ok(onNodes.length >= 8, `${onNodes.length} tasks on the nodes`);
  t.same(
    onNodes.filter((x) => x.delegate_facts !== true).map((x) => x.name),
    [],
    'every one with delegate_facts: true',
  );
  t.same([...new Set(onNodes.map((x) => x.delegate_to))].sort(), ['d1', 'm1']);
});
