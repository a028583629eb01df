/** Putting the allocation setting back: idempotent, retried with backoff within its own deadline, verified by a GET. */
import { DeadlineError, deadline, within } from '../base/deadline.ts';
import { errText } from '../base/errors.ts';
import { describeAllocation, readAllocation, restoreAllocation, type AllocationSetting } from './allocation.ts';
import type { AllocationOutcome } from './outcome.ts';
import type { StepEnv } from './types.ts';

/** Restore's own deadline, in units of --timeout: never cut short by the step's deadline or by Ctrl-C. */
export const RESTORE_FACTOR = 3;

const same = (a: AllocationSetting, b: AllocationSetting): boolean =>
  a.persistent === b.persistent && a.transient === b.transient;

/**
 * PUT the old values, then GET them back, until they read back equal or the deadline passes. `pending` is the hold's
 * PUT if it may still be in flight: it is let settle first, so it cannot land after the restore.
 */
export async function restoreVerified(
  env: Pick<StepEnv, 'api' | 'timeout' | 'now' | 'sleep'>,
  was: AllocationSetting,
  pending?: Promise<unknown>,
): Promise<AllocationOutcome> {
  const dl = deadline(RESTORE_FACTOR * env.timeout * 1000, env.now);
  const perRequest = (): number => Math.min(env.timeout * 1000, Math.max(1, dl.left()));
  if (pending) await within(pending, perRequest(), 'PUT /_cluster/settings').catch(() => undefined);
  let last = 'no attempt';
  let seen: AllocationSetting | undefined;
  for (let wait = 250; ; wait = Math.min(wait * 2, 4000)) {
    try {
      // the answer of the PUT is not trusted either way: the GET decides
      await within(restoreAllocation(env.api, was), perRequest(), 'PUT /_cluster/settings').catch((err: unknown) => {
        last = errText(err);
      });
      seen = await within(readAllocation(env.api), perRequest(), 'GET /_cluster/settings');
      if (same(seen, was)) return { restored: true, setting: was, left: seen };
      last = `read back ${describeAllocation(seen)}`;
    } catch (err) {
      last = err instanceof DeadlineError ? err.message : errText(err);
    }
    if (dl.expired()) break;
    await env.sleep(Math.min(wait, Math.max(1, dl.left())));
    if (dl.expired()) break;
  }
  return {
    restored: false,
    setting: was,
    ...(seen ? { left: seen } : {}),
    error: `allocation could NOT be restored to ${describeAllocation(was)} within ${RESTORE_FACTOR * env.timeout}s: ${last}`,
  };
}

/** One clause for the step's reason or error: what the cluster was left with, as read back. */
export function restoreLine(o: AllocationOutcome): string {
  if (o.restored) return `allocation restored (${describeAllocation(o.setting)}, as read back)`;
  const left = o.left
    ? `; the cluster was left with ${describeAllocation(o.left)}, as read back`
    : '; the setting could not be read back';
  return `${o.error ?? 'allocation could NOT be restored'}${left}`;
}
