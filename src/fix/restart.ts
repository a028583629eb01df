/** restart-service, rolling: one node at a time, and the engine's node must be back in the cluster before the next step. */
import type { ActionOf, CatRow } from '../model/index.ts';
import { causeAfter, deadline } from '../deadline.ts';
import { redactText } from '../secrets.ts';
import { apiErrorText } from './steps-api.ts';
import { rollingRestart } from './rolling.ts';
import { WAIT_FACTOR, type StepEnv, type StepResult } from './types.ts';

/** Running nodes the cluster must have again: those the audit saw, plus this one if it was not among them. */
function expectedNodes(env: StepEnv, host: string): number {
  const running = env.nodes.filter((n) => n.name !== null);
  return running.length + (running.some((n) => n.host === host) ? 0 : 1);
}

/** Polls `_cat/nodes` for the node (by ip or name), then `_cluster/health` (yellow, ≥N nodes) until 200 or the deadline. */
export async function waitForRejoin(host: string, env: StepEnv): Promise<string | null> {
  const seen = env.nodes.find((n) => n.host === host);
  const label = seen?.name ?? host;
  const want = expectedNodes(env, host);
  // a stalled answer counts against the wait: every request only gets the time that is left
  const dl = deadline(WAIT_FACTOR * env.timeout * 1000, env.now);
  let last = 'no answer yet';
  for (;;) {
    try {
      const cat = await dl.race(
        env.api.request({ method: 'GET', path: '/_cat/nodes', querystring: { format: 'json', h: 'ip,name' } }),
        'GET /_cat/nodes',
      );
      const rows = Array.isArray(cat.body) ? (cat.body as CatRow[]) : [];
      const back = rows.some(
        (r) => (seen?.address !== undefined && r.ip === seen.address) || (seen?.name != null && r.name === seen.name),
      );
      if (cat.statusCode !== 200) last = `GET /_cat/nodes: ${apiErrorText(cat.statusCode, cat.body)}`;
      else if (!back) last = `node ${label} is not in _cat/nodes`;
      else {
        const left = Math.max(1, Math.floor(dl.left() / 1000));
        const wait = `${Math.max(1, Math.min(left, Math.floor(env.timeout / 2)))}s`;
        const h = await dl.race(
          env.api.request({
            method: 'GET',
            path: '/_cluster/health',
            querystring: { wait_for_status: 'yellow', wait_for_nodes: `>=${want}`, timeout: wait },
          }),
          'GET /_cluster/health',
        );
        if (h.statusCode === 200) return null;
        const b = h.body as { status?: string; number_of_nodes?: number } | null;
        last =
          h.statusCode === 408
            ? `cluster health is ${b?.status ?? '?'} with ${b?.number_of_nodes ?? '?'} nodes (waiting for yellow and >=${want})`
            : `GET /_cluster/health: ${apiErrorText(h.statusCode, h.body)}`;
      }
    } catch (err) {
      last = causeAfter(err, last);
    }
    if (dl.expired()) return `node ${label} did not rejoin within ${WAIT_FACTOR * env.timeout}s: ${last}`;
    await env.sleep(env.pollMs);
  }
}

export async function restartService(a: ActionOf<'restart-service'>, env: StepEnv): Promise<StepResult> {
  if (!a.service.endsWith('-dashboards') && env.restart !== 'plain') return rollingRestart(a, env);
  const t = await env.transport(a.host);
  const r = await t.exec(a.command, { timeout: WAIT_FACTOR * env.timeout });
  if (r.code !== 0) {
    const err = redactText(r.stderr.trim() || r.stdout.trim());
    return { status: 'failed', error: `exit ${r.code}${err ? `: ${err}` : ''}` };
  }
  // the web application is not a cluster member: its restart command's exit code is the whole answer
  if (a.service.endsWith('-dashboards')) return { status: 'done' };
  const why = await waitForRejoin(a.host, env);
  return why ? { status: 'failed', error: why } : { status: 'done', reason: 'rejoined the cluster' };
}
