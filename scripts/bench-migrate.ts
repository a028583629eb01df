/**
 * `npm run bench:migrate`: a lab holding 200 000 generated jobs and 20 000 dashboards; the migrate scan
 * of both indices against a raw point-in-time read of the same documents (the floor), alternating, in one run.
 * Env: MIGRATE_BENCH_JOBS, MIGRATE_BENCH_DASHBOARDS, MIGRATE_BENCH_RUNS (3), MIGRATE_BENCH_PAGE (500).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { performance } from 'node:perf_hooks';
import { startLab } from '../lab/src/index.ts';
import { scaleScenario } from '../lab/src/generate.ts';

const jobs = Number(process.env.MIGRATE_BENCH_JOBS ?? 200_000);
const dashboards = Number(process.env.MIGRATE_BENCH_DASHBOARDS ?? 20_000);
const runs = Number(process.env.MIGRATE_BENCH_RUNS ?? 3);
const page = Number(process.env.MIGRATE_BENCH_PAGE ?? 500);
const mib = (b: number) => (b / 2 ** 20).toFixed(0);

const tBuild = performance.now();
const lab = await startLab({ scenario: scaleScenario({ jobs, dashboards, seed: 42 }) });
global.gc?.();
console.log(
  `lab:        ${jobs} jobs, ${dashboards} dashboards up in ${((performance.now() - tBuild) / 1000).toFixed(1)} s; lab process RSS ${mib(process.memoryUsage().rss)} MiB (peak ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB)`,
);
try {
  // async: the lab answers from this very process
  const child = async (mode: string) =>
    JSON.parse(
      (
        await promisify(execFile)(
          process.execPath,
          ['scripts/bench-migrate-child.mjs', mode, lab.inventoryPath, String(page)],
          { encoding: 'utf8', maxBuffer: 1 << 20 },
        )
      ).stdout,
    ) as { ms: number; cpuMs: number; docs: number; entries: number; maxRssMiB: number };
  await child('floor'); // warm-up: file cache, lab JIT
  const floor: number[] = [];
  const scan: number[] = [];
  const floorCpu: number[] = [];
  const scanCpu: number[] = [];
  let rss = 0;
  let floorRss = 0;
  let found = 0;
  let read = 0;
  for (let i = 0; i < runs; i++) {
    const f = await child('floor');
    const s = await child('scan');
    floor.push(f.ms);
    scan.push(s.ms);
    floorCpu.push(f.cpuMs);
    scanCpu.push(s.cpuMs);
    rss = Math.max(rss, s.maxRssMiB);
    floorRss = Math.max(floorRss, f.maxRssMiB);
    found = s.entries;
    read = f.docs;
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratio = med(scan) / med(floor);
  console.log(`documents:  ${read} read per pass, page ${page}; ${found} queries need replacement or review`);
  console.log(
    `floor:      median ${(med(floor) / 1000).toFixed(2)} s (raw point-in-time read, no analysis), peak RSS ${floorRss.toFixed(0)} MiB`,
  );
  console.log(
    `scan:       median ${(med(scan) / 1000).toFixed(2)} s (migrate jobs + dashboards, streamed), peak RSS ${rss.toFixed(0)} MiB`,
  );
  console.log(`ratio:      ${ratio.toFixed(2)}× the floor (goal ≤ 1.3×)  ${ratio <= 1.3 ? 'ok' : 'OVER'}`);
  // the reader's own CPU (the lab's is the same work for both): less disturbed by other load than wall time
  console.log(
    `reader CPU: floor ${(med(floorCpu) / 1000).toFixed(2)} s, scan ${(med(scanCpu) / 1000).toFixed(2)} s (medians; all runs: ${floor.map((x, i) => `${(x / 1000).toFixed(2)}/${(scan[i] / 1000).toFixed(2)} s`).join(', ')} wall)`,
  );
  console.log(`peak RSS:   ${rss.toFixed(0)} MiB (goal < 300 MiB)  ${rss < 300 ? 'ok' : 'OVER'}`);
  console.log(
    `lab after:  RSS ${mib(process.memoryUsage().rss)} MiB (peak ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB)`,
  );
} finally {
  await lab.stop();
}
