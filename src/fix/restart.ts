/** restart-service: an engine node by the documented rolling procedure (rolling.ts), the web application by its command. */
import type { ActionOf } from '../model/index.ts';
import { redactText } from '../text/index.ts';
import { rollingRestart } from './rolling.ts';
import { WAIT_FACTOR, type StepEnv, type StepResult } from './types.ts';

/** Runs a restart-service action's command: done on exit 0, else failed with what it said. */
export async function restartCommand(action: ActionOf<'restart-service'>, env: StepEnv): Promise<StepResult> {
  const transport = await env.transport(action.host);
  const result = await transport.exec(action.command, { timeout: WAIT_FACTOR * env.timeout });
  if (result.code === 0) return { status: 'done' };
  const err = redactText(result.stderr.trim() || result.stdout.trim());
  return { status: 'failed', error: `exit ${result.code}${err ? `: ${err}` : ''}` };
}

export async function restartService(action: ActionOf<'restart-service'>, env: StepEnv): Promise<StepResult> {
  if (!action.service.endsWith('-dashboards')) return rollingRestart(action, env);
  // the web application is not a cluster member: its restart command's exit code is the whole answer
  return restartCommand(action, env);
}
