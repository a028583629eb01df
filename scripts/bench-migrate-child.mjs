/**
 * One timed pass of `npm run bench:migrate`, in its own process so its peak RSS is its own.
 * floor: a raw point-in-time read of both indices (same page size, no analysis); scan: migrate's streaming analysis.
 * It runs the built package (dist/), as users do: under tsx the loader alone adds about 37 MiB to the RSS.
 * Prints one JSON object (wall and this process's CPU time of the pass). Usage: node scripts/bench-migrate-child.mjs floor|scan INVENTORY PAGE
 */
import { performance } from 'node:perf_hooks';
import { openCluster } from '../dist/migrate/cluster.js';
import { DEFAULTS } from '../dist/base/defaults.js';
import { clusterMacros, clusterMappings } from '../dist/migrate/providers.js';
import { findStored, storedConfig } from '../dist/migrate/stored/find.js';
import { openPages } from '../dist/migrate/stored/pages.js';

const [mode, inventory, pageArg] = process.argv.slice(2);
const page = Number(pageArg ?? 500);
const target = await openCluster({ inventory, timeout: DEFAULTS.timeout }, process.cwd(), process.env, () => undefined);
const t0 = performance.now();
const c0 = process.cpuUsage();
let docs = 0;
let entries = 0;
for (const kind of ['jobs', 'dashboards']) {
  if (mode === 'floor') {
    const opened = await openPages(target.api, kind === 'jobs' ? '.sm_jsc_jobs' : '.sm_dashboards', { page });
    if (!opened.missing) for await (const p of opened.pages) docs += p.length;
  } else {
    const sources = { mappings: clusterMappings(target.api), macros: clusterMacros(target.api, target.macrosIndex) };
    const found = await findStored(target.api, kind, storedConfig(target.vars), sources, { page });
    entries += found.entries.length;
  }
}
const ms = performance.now() - t0;
const cpu = process.cpuUsage(c0);
const cpuMs = (cpu.user + cpu.system) / 1000;
await target.api.close();
console.log(JSON.stringify({ mode, ms, cpuMs, docs, entries, maxRssMiB: process.resourceUsage().maxRSS / 1024 }));
