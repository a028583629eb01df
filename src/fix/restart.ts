/** restart-service, rolling: one node at a time, and the engine's node must be back in the cluster before the next step. */
import type { ActionOf } from '../model/index.ts';
import { deadline } from '../base/deadline.ts';
import { waitUntil, type Look } from './wait.ts';
import { redactText } from '../text/index.ts';
import { apiErrorText } from './api-error.ts';
import { nodeListed } from './rejoin.ts';
import { rollingRestart } from './rolling.ts';
import { WAIT_FACTOR, type StepEnv, type StepResult } from './types.ts';

/** Running nodes the cluster must have again: those the audit saw, plus this one if it was not among them. */
function expectedNodes(env: StepEnv, host: string): number {
  const running = env.nodes.filter((node) => node.name !== null);
  return running.length + (running.some((node) => node.host === host) ? 0 : 1);
}

/** Polls `_cat/nodes` for the node (by ip or name), then `_cluster/health` (yellow, ≥N nodes) until 200 or the deadline. */
export async function waitForRejoin(host: string, env: StepEnv): Promise<string | null> {
  const label = env.nodes.find((node) => node.host === host)?.name ?? host;
  const want = expectedNodes(env, host);
  // a stalled answer counts against the wait: every request only gets the time that is left
  const dl = deadline(WAIT_FACTOR * env.timeout * 1000, env.now);
  const outcome = await waitUntil(
    dl,
    async (): Promise<Look<void>> => {
      const listed = await nodeListed(env, host, label, dl);
      if (!listed.holds) return listed;
      const left = Math.max(1, Math.floor(dl.left() / 1000));
      const wait = `${Math.max(1, Math.min(left, Math.floor(env.timeout / 2)))}s`;
      const health = await dl.race(
        env.api.request({
          method: 'GET',
          path: '/_cluster/health',
          querystring: { wait_for_status: 'yellow', wait_for_nodes: `>=${want}`, timeout: wait },
        }),
        'GET /_cluster/health',
      );
      if (health.statusCode === 200) return listed;
      const body = health.body as { status?: string; number_of_nodes?: number } | null;
      return {
        holds: false,
        why:
          health.statusCode === 408
            ? `cluster health is ${body?.status ?? '?'} with ${body?.number_of_nodes ?? '?'} nodes (waiting for yellow and >=${want})`
            : `GET /_cluster/health: ${apiErrorText(health.statusCode, health.body)}`,
      };
    },
    { sleep: env.sleep, pollMs: env.pollMs },
  );
  return outcome.holds ? null : `node ${label} did not rejoin within ${WAIT_FACTOR * env.timeout}s: ${outcome.cause}`;
}

export async function restartService(action: ActionOf<'restart-service'>, env: StepEnv): Promise<StepResult> {
  if (!action.service.endsWith('-dashboards') && env.restart !== 'plain') return rollingRestart(action, env);
  const transport = await env.transport(action.host);
  const result = await transport.exec(action.command, { timeout: WAIT_FACTOR * env.timeout });
  if (result.code !== 0) {
    const err = redactText(result.stderr.trim() || result.stdout.trim());
    return { status: 'failed', error: `exit ${result.code}${err ? `: ${err}` : ''}` };
  }
  // the web application is not a cluster member: its restart command's exit code is the whole answer
  if (action.service.endsWith('-dashboards')) return { status: 'done' };
  const why = await waitForRejoin(action.host, env);
  return why ? { status: 'failed', error: why } : { status: 'done', reason: 'rejoined the cluster' };
}
