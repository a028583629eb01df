/**
 * The 0.1 restart (the command, then a wait for the node to rejoin; no allocation held), which the product no longer
 * has: tests pass it as fix's `restart-service` step (deps.steps) to show what the rolling restart prevents.
 */
import type { ActionOf } from '../../src/model/index.ts';
import { deadline } from '../../src/base/deadline.ts';
import { waitUntil, type Look } from '../../src/fix/wait.ts';
import { apiErrorText } from '../../src/fix/api-error.ts';
import { nodeListed } from '../../src/fix/rejoin.ts';
import { restartCommand } from '../../src/fix/restart.ts';
import { WAIT_FACTOR, type StepEnv, type StepResult } from '../../src/fix/types.ts';

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

/** restart-service as 0.1 did it: an engine node restarted at once, then waited for; the web application as fix does it. */
export async function plainRestart(action: ActionOf<'restart-service'>, env: StepEnv): Promise<StepResult> {
  const ran = await restartCommand(action, env);
  if (ran.status !== 'done' || action.service.endsWith('-dashboards')) return ran;
  const why = await waitForRejoin(action.host, env);
  return why ? { status: 'failed', error: why } : { status: 'done', reason: 'rejoined the cluster' };
}
