/** A reviewed plan and the packs of this run. */
import { UsageError } from '../base/errors.ts';
import type { Pack, Report } from '../model/index.ts';

/** A reviewed plan made with pack checks is re-derived with the same packs, or refused before anything is read. */
export function requirePlanPacks(plan: Report, packs: readonly Pack[], file: string): void {
  const loaded = new Set(packs.flatMap((p) => p.checks.map((k) => k.fullId)));
  const missing = [...new Set(plan.clusters.flatMap((c) => c.checks.map((k) => k.id)))].filter(
    (id) => id.includes('/') && !loaded.has(id),
  );
  if (missing.length)
    throw new UsageError(
      `${file}: the plan was made with pack checks not loaded now (${missing.join(', ')}): pass the same --pack options`,
    );
}
