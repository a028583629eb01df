/**
 * The documented rolling restart of one engine node: allocation held at `primaries` (data nodes only), flush,
 * restart, wait until it is back, restore the setting exactly, wait for green (or a settled yellow).
 * Whatever happens after the setting was changed, it is restored before the step returns.
 */
import type { ActionOf } from '../model/index.ts';
import { isDataRole } from '../facts/roles.ts';
import { redactText } from '../text/index.ts';
import { holdPrimaries, readAllocation, type AllocationSetting } from './allocation.ts';
import { restoreLine, restoreVerified } from './restore.ts';
import { DeadlineError, Interrupted, deadline, type Deadline } from '../base/deadline.ts';
import { waitUntil, type Look } from './wait.ts';
import { nodeListed } from './rejoin.ts';
import { LeaseLost } from './lease.ts';
import { dataNodeCount, readHealth, stateLine, unmet, type Health } from './gate.ts';
import { apiErrorText } from './api-error.ts';
import { errText } from '../base/errors.ts';
import { WAIT_FACTOR, type StepEnv, type StepResult, type WaitPhase } from './types.ts';
import type { AllocationOutcome } from './outcome.ts';

/** How long past its timeout a restart command may take to be killed and reported by the transport. */
const RESTART_GRACE_MS = 3000;

class StepFailure extends Error {}

function tell(env: StepEnv, node: string, phase: WaitPhase, started: number, dl: Deadline | null, h?: Health): void {
  env.onProgress?.({
    node,
    phase,
    elapsedMs: env.now() - started,
    ...(dl ? { deadlineMs: dl.at - started } : {}),
    ...(h ? { initializing: h.initializing_shards ?? 0, unassigned: h.unassigned_shards ?? 0 } : {}),
  });
}

async function waitBack(
  env: StepEnv,
  action: ActionOf<'restart-service'>,
  label: string,
  dl: Deadline,
  started: number,
): Promise<void> {
  const outcome = await waitUntil(
    dl,
    () => {
      tell(env, label, 'rejoin', started, dl);
      return nodeListed(env, action.host, label, dl);
    },
    { sleep: env.sleep, pollMs: env.pollMs, ...(env.signal ? { signal: env.signal } : {}) },
  );
  if (!outcome.holds)
    throw new StepFailure(
      `node ${label} did not rejoin within ${Math.round((dl.at - started) / 1000)}s: ${outcome.cause}`,
    );
}

async function waitSettled(env: StepEnv, label: string, dl: Deadline, started: number): Promise<Health> {
  const rule = {
    allowYellow: env.allowYellow === true,
    dataNodes: dataNodeCount(env.nodes),
    baselineUnassigned: env.baselineUnassigned ?? 0,
  };
  const outcome = await waitUntil(
    dl,
    async (): Promise<Look<Health>> => {
      const secs = Math.max(1, Math.min(Math.floor(dl.left() / 1000), Math.ceil(env.pollMs / 1000)));
      const health = await dl.race(
        readHealth(env.api, {
          wait_for_status: rule.allowYellow ? 'yellow' : 'green',
          wait_for_no_relocating_shards: 'true',
          wait_for_no_initializing_shards: 'true',
          timeout: `${secs}s`,
        }),
        'GET /_cluster/health',
      );
      tell(env, label, 'settle', started, dl, health);
      const why = unmet(health, rule);
      // an answer with a status waited out its timeout on the server: no pause before the next
      return why === null ? { holds: true, value: health } : { holds: false, why, waited: health.status !== undefined };
    },
    { sleep: env.sleep, pollMs: env.pollMs, ...(env.signal ? { signal: env.signal } : {}) },
  );
  if (!outcome.holds)
    throw new StepFailure(
      `the cluster did not settle within ${Math.round((dl.at - started) / 1000)}s: ${outcome.cause}`,
    );
  return outcome.value;
}

/** How the cluster was left, for the report; never throws. */
async function leftState(env: StepEnv): Promise<string> {
  try {
    const dl = deadline(env.timeout * 1000, env.now);
    return stateLine(await dl.race(readHealth(env.api), 'GET /_cluster/health'));
  } catch (err) {
    return `cluster state unknown: ${errText(err)}`;
  }
}

/** After Ctrl-C with the node going down: restoring now would rebuild its replicas elsewhere, so it is awaited first. */
async function rejoinBeforeRestore(
  env: StepEnv,
  a: ActionOf<'restart-service'>,
  label: string,
  rejoin: Deadline,
  started: number,
): Promise<string> {
  if (env.urgent?.aborted) return 'restored at once (second interrupt)';
  // the first interrupt no longer ends this wait; only a second one does
  const { signal: _first, ...rest } = env;
  const calm: StepEnv = { ...rest, ...(env.urgent ? { signal: env.urgent } : {}) };
  const dl = deadline(rejoin.left(), env.now, env.urgent);
  try {
    await waitBack(calm, a, label, dl, started);
    return `node ${label} rejoined before the restore`;
  } catch (err) {
    if (err instanceof Interrupted) return 'restored at once (second interrupt)';
    return `restored without node ${label}: ${errText(err)}`;
  }
}

export async function rollingRestart(a: ActionOf<'restart-service'>, env: StepEnv): Promise<StepResult> {
  const node = env.nodes.find((n) => n.host === a.host);
  const label = node?.name ?? a.host;
  // a node the audit could not place is treated as holding data: holding allocation is harmless there
  const data = node ? node.roles.some(isDataRole) : true;
  const started = env.now();
  // set before the hold's PUT is sent: from then on the restore runs on every path, answer or not
  let was: AllocationSetting | null = null;
  let hold: Promise<unknown> | undefined;
  // what the report says of the allocation setting once it was held
  let allocation: AllocationOutcome | undefined;
  let failure: string | null = null;
  let interrupted = false;
  // the restart command was sent: the node may be down, so an interrupt waits for it before restoring
  let sent = false;
  const rejoin = deadline(WAIT_FACTOR * env.timeout * 1000, env.now, env.signal);
  try {
    if (env.signal?.aborted) throw new Interrupted();
    if (data) {
      const dl = deadline(env.timeout * 1000, env.now, env.signal);
      tell(env, label, 'allocation', started, dl);
      const before = await dl.race(readAllocation(env.api), 'GET /_cluster/settings');
      was = before;
      hold = holdPrimaries(env.api, before);
      hold.catch(() => undefined);
      await dl.race(hold, 'PUT /_cluster/settings');
      hold = undefined;
      tell(env, label, 'flush', started, dl);
      const f = await dl.race(env.api.request({ method: 'POST', path: '/_flush' }), 'POST /_flush');
      if (f.statusCode !== 200) throw new StepFailure(`POST /_flush: ${apiErrorText(f.statusCode, f.body)}`);
    }
    const restartBy = deadline(rejoin.left(), env.now, env.signal);
    tell(env, label, 'restart', started, restartBy);
    const t = await restartBy.race(env.transport(a.host), `connect ${a.host}`);
    // The command gets the time left and the transport kills it then; the race only backs that up (and hears Ctrl-C).
    const secs = Math.max(1, Math.round(restartBy.left() / 1000));
    const backstop = deadline(secs * 1000 + RESTART_GRACE_MS, env.now, env.signal);
    sent = true;
    const r = await backstop.race(t.exec(a.command, { timeout: secs }), `restart on ${a.host}`);
    if (r.code !== 0) {
      const err = redactText(r.stderr.trim() || r.stdout.trim());
      throw new StepFailure(`exit ${r.code}${err ? `: ${err}` : ''}`);
    }
    // the command returned, so the old process is gone: the node has left; now it must be back
    await waitBack(env, a, label, restartBy, started);
    sent = false;
    if (was) {
      tell(env, label, 'restore', started, rejoin);
      allocation = await restoreVerified(env, was);
      was = null;
      if (!allocation.restored) throw new StepFailure(restoreLine(allocation));
    }
    await waitSettled(env, label, deadline(WAIT_FACTOR * env.timeout * 1000, env.now, env.signal), started);
  } catch (err) {
    interrupted = err instanceof Interrupted;
    failure = interrupted
      ? env.signal?.reason instanceof LeaseLost
        ? `${env.signal.reason.message}: stopped while restarting`
        : 'interrupted while restarting'
      : err instanceof StepFailure || err instanceof DeadlineError
        ? err.message
        : errText(err);
  }
  if (failure === null)
    return {
      status: 'done',
      reason: data ? 'rejoined; allocation restored; cluster settled' : 'rejoined; cluster settled',
      ...(allocation ? { allocation } : {}),
    };
  const parts = [failure];
  if (was) {
    if (interrupted && sent) {
      tell(env, label, 'rejoin-before-restore', started, rejoin);
      parts.push(await rejoinBeforeRestore(env, a, label, rejoin, started));
    }
    tell(env, label, 'restore', started, rejoin);
    allocation = await restoreVerified(env, was, hold);
    parts.push(restoreLine(allocation));
  }
  const left = await leftState(env);
  parts.push(left);
  return {
    status: 'failed',
    error: redactText(parts.join('; ')),
    left: redactText(left),
    ...(allocation ? { allocation } : {}),
  };
}
