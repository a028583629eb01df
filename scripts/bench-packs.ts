/**
 * `npm run bench:packs`: audit of one lab with and without a 20-check pack (scripts/fixtures/bench-pack.yml), in one
 * run, alternating so both see the same machine; the ratio of the medians is the figure (goal: at most 1.15×).
 * Commands and requests are counted from audit's -v trace: the pack adds none per check.
 * Usage: npm run bench:packs -- [--scenario fleet] [--runs 7] [--tool-delay 1000]
 */
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startLab } from '../lab/src/index.ts';
import { loadInventory } from '../src/inventory/load.ts';
import { runAudit } from '../src/audit/run.ts';
import { loadPacks } from '../src/packs/load/load.ts';
import type { Pack } from '../src/model/pack.ts';

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'fleet' },
    runs: { type: 'string', default: '7' },
    'tool-delay': { type: 'string', default: '1000' },
  },
});
const runs = Math.max(1, Number(values.runs));
// the keystore tool starts a JVM on a real host: the lab's stand-in waits as long (npm run bench does the same)
const lab = await startLab({ scenario: values.scenario!, toolDelayMs: Number(values['tool-delay']) });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
try {
  const inventory = await loadInventory(lab.inventoryPath);
  const hosts = [...inventory.hosts.keys()];
  const load = (f: string) =>
    loadPacks([join(import.meta.dirname, 'fixtures', f)], { cwd: process.cwd(), maxBytes: 1 << 20 });
  const pack = await load('bench-pack.yml');
  const keystore = [...pack, ...(await load('bench-keystore.yml'))];
  const once = async (packs: Pack[]) => {
    const counts = { connect: 0, exec: 0, request: 0 };
    const trace = (line: string) => {
      if (/: connected to /.test(line)) counts.connect++;
      else if (/: exit -?\d+ in /.test(line)) counts.exec++;
      else if (/\b(GET|PUT|POST|DELETE|HEAD) \//.test(line)) counts.request++;
    };
    const t0 = performance.now();
    const r = await runAudit({ inventory, hosts, forks: 20, timeout: 30, env: process.env, packs, trace });
    const ms = performance.now() - t0;
    return { ms, counts, checks: r.clusters.reduce((n, c) => n + c.checks.length, 0) };
  };
  await once([]); // warm-up: TLS contexts, module caches
  const without: number[] = [];
  const withPack: number[] = [];
  const withKeystore: number[] = [];
  let last: Record<string, Awaited<ReturnType<typeof once>>> = {};
  for (let i = 0; i < runs; i++) {
    const a = await once([]);
    const b = await once(pack);
    const c = await once(keystore);
    without.push(a.ms);
    withPack.push(b.ms);
    withKeystore.push(c.ms);
    last = { without: a, with: b, keystore: c };
  }
  const ratio = median(withPack) / median(without);
  console.log(
    JSON.stringify(
      {
        scenario: values.scenario,
        hosts: hosts.length,
        runs,
        pack_checks: pack.flatMap((p) => p.checks).length,
        without_ms: without.map(Math.round),
        with_ms: withPack.map(Math.round),
        median_without_ms: Math.round(median(without)),
        median_with_ms: Math.round(median(withPack)),
        ratio: Number(ratio.toFixed(3)),
        goal: ratio <= 1.15 ? 'met (<= 1.15x)' : 'missed (> 1.15x)',
        traced_without: last.without?.counts,
        traced_with: last.with?.counts,
        with_keystore_ms: withKeystore.map(Math.round),
        median_with_keystore_ms: Math.round(median(withKeystore)),
        keystore_ratio: Number((median(withKeystore) / median(without)).toFixed(3)),
        traced_with_keystore: last.keystore?.counts,
      },
      null,
      2,
    ),
  );
} finally {
  await lab.stop();
}
