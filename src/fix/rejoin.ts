/** Whether a restarted engine node is back in the cluster: the look both restarts (rolling and plain) wait on. */
import type { Deadline } from '../base/deadline.ts';
import type { Look } from './wait.ts';
import { apiErrorText } from './api-error.ts';
import { CatRows, shaped } from '../cluster/shapes.ts';
import type { StepEnv } from './types.ts';

/** The node of `host` is in `_cat/nodes`, matched by the address or the name the audit saw it with. */
export async function nodeListed(env: StepEnv, host: string, label: string, dl: Deadline): Promise<Look<void>> {
  const seen = env.nodes.find((n) => n.host === host);
  const cat = await dl.race(
    env.api.request({ method: 'GET', path: '/_cat/nodes', querystring: { format: 'json', h: 'ip,name' } }),
    'GET /_cat/nodes',
  );
  if (cat.statusCode !== 200)
    return { holds: false, why: `GET /_cat/nodes: ${apiErrorText(cat.statusCode, cat.body)}` };
  // a malformed answer is a reason the wait goes on (the look throws), named by field
  const rows = shaped(CatRows, cat.body, 'GET /_cat/nodes');
  const back = rows.some(
    (row) => (seen?.address !== undefined && row.ip === seen.address) || (seen?.name != null && row.name === seen.name),
  );
  return back ? { holds: true, value: undefined } : { holds: false, why: `node ${label} is not in _cat/nodes` };
}
