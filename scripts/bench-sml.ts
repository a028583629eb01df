/** `npm run bench:sml`: explain() over 100k seeded realistic queries; prints throughput, latency and peak RSS. */

import { performance } from 'node:perf_hooks';
import { explain, MappingIndex } from '../src/sml/index.ts';
import { corpusMacros, corpusMappings, genQuery, prng } from '../src/sml/corpus.ts';

const N = Number(process.env.SML_BENCH_N ?? 100_000);
const r = prng(42);
const queries = Array.from({ length: N }, () => genQuery(r));
const ctx = { mappings: new MappingIndex([corpusMappings()]), macros: corpusMacros() };

let peakRss = process.memoryUsage().rss;
for (let i = 0; i < 2000; i++) explain(queries[i], ctx); // warm-up (JIT), not timed

const lat = new Float64Array(N);
let changed = 0;
let withMacros = 0;
const t0 = performance.now();
for (let i = 0; i < N; i++) {
  const s = performance.now();
  const e = explain(queries[i], ctx);
  lat[i] = performance.now() - s;
  if (e.replacement !== e.original) changed++;
  if (e.macros.length) withMacros++;
  if ((i & 4095) === 0) peakRss = Math.max(peakRss, process.memoryUsage().rss);
}
const total = performance.now() - t0;
peakRss = Math.max(peakRss, process.memoryUsage().rss);
lat.sort();
const chars = queries.reduce((n, q) => n + q.length, 0);

console.log(`queries:        ${N} (${withMacros} with macro calls, mean ${(chars / N).toFixed(0)} chars; ${changed} rewritten)`);
console.log(`total:          ${(total / 1000).toFixed(2)} s`);
console.log(`throughput:     ${Math.round(N / (total / 1000))} queries/s`);
console.log(`mean:           ${((total * 1000) / N).toFixed(1)} µs/query`);
console.log(`p50 / p99:      ${(lat[Math.floor(N * 0.5)] * 1000).toFixed(1)} / ${(lat[Math.floor(N * 0.99)] * 1000).toFixed(1)} µs`);
console.log(`peak RSS:       ${(peakRss / 2 ** 20).toFixed(0)} MiB`);
