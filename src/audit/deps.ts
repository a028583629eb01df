/** The one place audit reaches the modules it builds on; a caller replaces entries of it through RunAuditOptions.deps. */
import { mapLimit } from '../transport/limit.ts';
import { dedupeRestarts, runChecks, topologyOf } from '../checks/index.ts';
import { systemClock } from '../base/clock.ts';

// run.ts checks this against AuditDeps where it spreads it; no type import back, so no cycle
export const defaultDeps = {
  runChecks,
  restartsOnce: dedupeRestarts,
  topology: topologyOf,
  mapLimit,
  now: systemClock.now,
};
