/**
 * `npm run bench:sml`: explain() over 100k seeded realistic queries against the floor, a one-regex tokenizer
 * pass over the same queries, in one run (rounds alternate so machine load hits both alike); prints the
 * ratio (goal ≤ 3×), throughput, latency and peak RSS. Times are this process's CPU time (user + system), so other
 * work on a shared machine does not weigh on one side; wall-clock medians are printed beside them.
 * Env: SML_BENCH_N (100000), SML_BENCH_ROUNDS (9).
 */

import { performance } from 'node:perf_hooks';
import { explain, MappingIndex } from '../src/sml/index.ts';
import { corpusMacros, corpusMappings, genQuery, prng } from '../lab/src/corpus.ts';

const N = Number(process.env.SML_BENCH_N ?? 100_000);
const ROUNDS = Number(process.env.SML_BENCH_ROUNDS ?? 9);
const r = prng(42);
const queries = Array.from({ length: N }, () => genQuery(r));
const ctx = { mappings: new MappingIndex([corpusMappings()]), macros: corpusMacros() };

/** The floor: one regex that splits SML into its tokens (strings, macro calls, punctuation, operators, words). */
const TOKEN = /"(?:[^"\\]|\\.)*"?|`[^`]*`?|[|()[\],]|[<>!]=|[=<>]|[^\s"`|()[\],=<>]+/g;
function tokenize(q: string): number {
  let n = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.exec(q) !== null) n++;
  return n;
}

let peakRss = process.memoryUsage().rss;
const sample = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));

/** One timed pass over the whole corpus: [CPU ms, wall ms]. `sink` keeps the work observable. */
let sink = 0;
function timed(fn: () => void): [number, number] {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  fn();
  const c = process.cpuUsage(c0);
  return [(c.user + c.system) / 1000, performance.now() - t0];
}
const passFloor = () =>
  timed(() => {
    for (let i = 0; i < N; i++) sink += tokenize(queries[i]);
  });
const passExplain = () =>
  timed(() => {
    for (let i = 0; i < N; i++) {
      sink += explain(queries[i], ctx).search_fields.length;
      if ((i & 4095) === 0) sample();
    }
  });

// warm-up, not timed: one whole pass of each, so the first timed round is not still compiling
passFloor();
passExplain();
const floor: number[] = [];
const exp: number[] = [];
const floorWall: number[] = [];
const expWall: number[] = [];
for (let k = 0; k < ROUNDS; k++) {
  const [fc, fw] = passFloor();
  const [ec, ew] = passExplain();
  floor.push(fc);
  floorWall.push(fw);
  exp.push(ec);
  expWall.push(ew);
}
sample();

// latency and result counts: a separate pass, so per-query clock reads do not weigh on the ratio
const lat = new Float64Array(N);
let changed = 0;
let withMacros = 0;
for (let i = 0; i < N; i++) {
  const s = performance.now();
  const e = explain(queries[i], ctx);
  lat[i] = performance.now() - s;
  if (e.replacement !== e.original) changed++;
  if (e.macros.length) withMacros++;
}
lat.sort();
const chars = queries.reduce((n, q) => n + q.length, 0);
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ratio = med(exp) / med(floor);
const ms = (x: number) => `${(x / 1000).toFixed(2)} s`;

console.log(
  `queries:        ${N} (${withMacros} with macro calls, mean ${(chars / N).toFixed(0)} chars; ${changed} rewritten)`,
);
console.log(
  `floor:          median ${ms(med(floor))} CPU of ${ROUNDS} (one-regex tokenizer pass; ${floor.map(ms).join(', ')}); wall ${ms(med(floorWall))}`,
);
console.log(
  `explain:        median ${ms(med(exp))} CPU of ${ROUNDS} (${exp.map(ms).join(', ')}); wall ${ms(med(expWall))}`,
);
console.log(
  `ratio:          ${ratio.toFixed(2)}× the floor in CPU time (goal ≤ 3×)  ${ratio <= 3 ? 'ok' : 'OVER'}; wall ${(med(expWall) / med(floorWall)).toFixed(2)}×`,
);
console.log(`throughput:     ${Math.round(N / (med(exp) / 1000))} queries/s`);
console.log(`mean:           ${((med(exp) * 1000) / N).toFixed(1)} µs/query`);
console.log(
  `p50 / p99:      ${(lat[Math.floor(N * 0.5)] * 1000).toFixed(1)} / ${(lat[Math.floor(N * 0.99)] * 1000).toFixed(1)} µs`,
);
console.log(`peak RSS:       ${(peakRss / 2 ** 20).toFixed(0)} MiB${sink < 0 ? ' ' : ''}`);
