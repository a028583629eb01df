#!/usr/bin/env node
// `npm run bench:startup` (part of `npm run bench`): start-up of the built `smdoctor --version` against a bare
// `node -e 0`, run alternately on the same machine so that load affects both alike. Target: ratio ≤ 1.5.
// Usage: node scripts/bench-startup.mjs [--runs 20]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const root = join(import.meta.dirname, '..');
const bin = join(root, 'bin/smdoctor.js');
const i = process.argv.indexOf('--runs');
const runs = Math.max(3, Number(i > 0 ? process.argv[i + 1] : 20) || 20);
if (!existsSync(join(root, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run npm run build first');

const time = (args) => {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed: ${r.stderr}`);
  return performance.now() - t;
};
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

time(['-e', '0']);
time([bin, '--version']); // warm the file cache; not recorded
const floor = [];
const version = [];
const help = [];
for (let k = 0; k < runs; k++) {
  floor.push(time(['-e', '0']));
  version.push(time([bin, '--version']));
  help.push(time([bin, '--help'])); // loads the argument parser and main, still no command module
}
const f = median(floor);
const ratio = median(version) / f;
const row = (name, ms) => console.log(`  ${name.padEnd(20)} ${ms.toFixed(0).padStart(5)} ms  ${(ms / f).toFixed(2)}×`);
console.log(`start-up, median of ${runs} alternating runs`);
row('node -e 0', f);
row('smdoctor --version', median(version));
row('smdoctor --help', median(help));
console.log(`  --version ratio ${ratio.toFixed(2)} (target ≤ 1.50)`);
process.exitCode = ratio <= 1.5 ? 0 : 1;
