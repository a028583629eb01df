/** One pack-drift lab per test file, audited with the drift pack (test/fixtures/packs/drift.yml) through runAudit. */
import t from 'tap';
import { join } from 'node:path';
import { startLab, type Lab } from '../../../lab/src/index.ts';
import { loadInventory } from '../../../src/inventory/load.ts';
import { runAudit } from '../../../src/audit/run.ts';
import { loadPacks } from '../../../src/packs/load/load.ts';
import type { CheckResult, Report } from '../../../src/model/index.ts';

export const DRIFT_PACK = join(import.meta.dirname, '..', '..', 'fixtures', 'packs', 'drift.yml');

export function driftLab(restartDelayMs?: number): {
  readonly lab: Lab;
  audit(morePacks?: string[]): Promise<Report>;
} {
  const shared = {} as { lab: Lab };
  t.before(async () => {
    shared.lab = await startLab({
      scenario: 'pack-drift',
      ...(restartDelayMs !== undefined ? { restartDelayMs } : {}),
    });
  });
  t.teardown(() => shared.lab?.stop());
  return {
    get lab() {
      return shared.lab;
    },
    /** Audited with the drift pack, and these packs after it. */
    async audit(morePacks: string[] = []) {
      const inventory = await loadInventory(shared.lab.inventoryPath);
      const packs = await loadPacks([DRIFT_PACK, ...morePacks], { cwd: process.cwd(), maxBytes: 1 << 20 });
      return runAudit({
        inventory,
        hosts: [...inventory.hosts.keys()],
        forks: 8,
        timeout: 20,
        env: process.env,
        packs,
      });
    },
  };
}

export const statusById = (r: Report) =>
  new Map<string, CheckResult['status']>(r.clusters[0]!.checks.map((c) => [c.id, c.status]));
