/** The rolling order: the elected cluster manager restarts last, so the cluster elects once, not twice. */
import type { Action, ActionOf, ClusterReport } from '../model/index.ts';

export const isEngineRestart = (action: Action): action is ActionOf<'restart-service'> =>
  action.type === 'restart-service' && !action.service.endsWith('-dashboards');

/** The elected node's engine restart moved after every other engine restart; everything else keeps the plan's order. */
export function electedLast<A extends Action>(
  actions: A[],
  nodes: ClusterReport['nodes'],
  elected: string | null,
): A[] {
  if (elected === null) return actions;
  const host = nodes.find((n) => n.name === elected)?.host;
  const mine = actions.findIndex((a) => isEngineRestart(a) && a.host === host);
  if (host == null || mine < 0) return actions;
  let lastOther = -1;
  actions.forEach((a, i) => {
    if (isEngineRestart(a) && a.host !== host) lastOther = i;
  });
  if (lastOther < mine) return actions;
  const out = [...actions];
  const [moved] = out.splice(mine, 1);
  out.splice(lastOther, 0, moved!);
  return out;
}
