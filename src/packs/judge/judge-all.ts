/** Every loaded pack's checks over one cluster, after the vendor's five, and the remedies that would fight refused. */
import type { CheckResult, ClusterFacts, Pack } from '../../model/index.ts';
import { ALLOCATION_KEY, CHECK_IDS } from '../../model/index.ts';
import { errText } from '../../base/errors.ts';
import { judgeCheck, type JudgeOptions } from './judge.ts';
import { changedKeys } from './remedy.ts';
import { setsAllocation } from '../../facts/allocation.ts';

/** One result per pack check, in load order after the vendor's five; a check that throws is an error, the rest run. */
export function judgePacks(packs: readonly Pack[], facts: ClusterFacts, o: JudgeOptions): CheckResult[] {
  return packs
    .flatMap((p) => p.checks)
    .map((c, i) => {
      const order = CHECK_IDS.length + 1 + i;
      try {
        return judgeCheck(c, facts, order, o);
      } catch (e) {
        return {
          id: c.fullId as `${string}/${string}`,
          order,
          severity: c.severity,
          title: c.title,
          why: c.why,
          status: 'error' as const,
          reason: `the check failed: ${errText(e)}`,
          findings: [],
          actions: [],
        };
      }
    });
}

/**
 * A pack check's action that changes what an earlier check's action changes (the same key of the same file, the same
 * plugin, the same setting of the same API path) is refused, naming both: the vendor's checks come first, then packs
 * in load order. Two edits of one key could not both apply (the second's diff is against a file the first changed).
 */
export function refuseConflicts(results: readonly CheckResult[]): CheckResult[] {
  const owner = new Map<string, string>();
  return results.map((r) => {
    const refused = new Map<number, string>();
    r.actions.forEach((a, i) => {
      for (const k of changedKeys(a)) {
        const by = owner.get(k);
        if (by !== undefined && by !== r.id) refused.set(i, `it conflicts with the action of check ${by} on ${k}`);
      }
      // the plan's own allocation handling (rolling restarts, reset-allocation) changes this setting in every plan
      if (a.type === 'put-settings' && setsAllocation(a.api_path, a.body))
        refused.set(
          i,
          `it changes ${ALLOCATION_KEY}, which the plan sets itself (its rolling restarts hold it at primaries and put it back; reset-allocation clears it)`,
        );
    });
    r.actions.forEach((a) => changedKeys(a).forEach((k) => owner.has(k) || owner.set(k, r.id)));
    if (!r.id.includes('/') || refused.size === 0) return r;
    const notes = [...refused].map(([i, why]) => ({
      ...(r.actions[i]!.host ? { host: r.actions[i]!.host } : {}),
      kind: 'note' as const,
      message: `the remedy of ${r.id} is refused: ${why}`,
    }));
    // the edit goes, and its restart with it unless another edit of the check still needs it
    const kept = r.actions.filter((_, i) => !refused.has(i));
    const edited = new Set(kept.filter((a) => a.type !== 'restart-service').map((a) => a.host));
    return {
      ...r,
      actions: kept.filter((a) => a.type !== 'restart-service' || edited.has(a.host)),
      findings: [...r.findings, ...notes],
    };
  });
}
