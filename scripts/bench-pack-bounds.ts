/**
 * `npm run bench:pack-bounds`: what the bounds on a pack let its author cost. The heaviest accepted regexes of several
 * shapes, each over the longest text it may scan, through the `file` source as audit runs it (CPU time of one match),
 * and `pack validate` of the largest accepted pack (CPU time and peak RSS). Goal: a match under 0.25 s of CPU, a pack
 * under 5 s and 250 MiB, on a loaded machine.
 * Usage: npm run bench:pack-bounds
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_REGEX_WEIGHT, regexWeight, scanLimit } from '../src/base/regex-cost.ts';
import { regexProblem } from '../src/packs/load/load-regex.ts';
import { judgeCheck } from '../src/packs/index.ts';
import { MAX_PACK_CHECKS } from '../src/packs/load/load-pack.ts';
import { MAX_PACK_BYTES } from '../src/packs/load/load.ts';
import { check, cluster } from '../test/helpers/packs/facts.ts';

/** The largest pattern of a shape still accepted: `grow(n)` for the largest n whose pattern loads. */
function heaviest(grow: (n: number) => string): string {
  let n = 1;
  while (regexProblem(grow(n + 1)) === null && n < 10_000) n++;
  return grow(n);
}

const ALPHA = 'abcdefghijklmnopqrstuvwxyz0123456789';
const shapes: Array<[string, (n: number) => string, string]> = [
  ['words', (n) => `(${Array.from({ length: n }, (_, i) => `w${i.toString(36)}x`).join('|')})z`, 'w1x w2y w3x '],
  ['letters', (n) => `(${ALPHA.slice(0, n).split('').join('|')})+z`, ALPHA],
  ['classes', (n) => `^(?:\\s*[a-z0-9_.-]+\\s*[:=]\\s*\\S+){${Math.min(n, 9)}}x`, 'key.a: value '],
  ['spaces', (n) => `(?:\\s\\S){${Math.min(n, 9)}}(?:\\s\\S){${Math.min(n, 9)}}q`, ' a b c d '],
  ['dots', (n) => `${Array.from({ length: n }, (_, i) => `.*${ALPHA[i % 36]}`).join('')}!`, ALPHA],
  ['nested', (n) => `((a|b|c|d)(e|f|g|h)){${Math.min(n, 9)}}!`, 'aebfcgdh'],
];

const cpuMs = (f: () => void): number => {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
};

console.log(`| shape | chars | weight (≤ ${MAX_REGEX_WEIGHT}) | text scanned | CPU of one match |`);
console.log('| --- | --- | --- | --- | --- |');
let worst = 0;
for (const [name, grow, unit] of shapes) {
  const pattern = heaviest(grow);
  const limit = scanLimit(regexWeight(pattern));
  const text = unit.repeat(Math.ceil(limit / unit.length)).slice(0, limit);
  const facts = cluster([{ name: 'n1', reads: { files: { 'search:config/x.txt': { text } } } }]);
  const c = check({ kind: 'file', path: 'config/x.txt', match: pattern }, [{ kind: 'present', value: false }]);
  const ms = cpuMs(() => judgeCheck(c, facts, 1, { now: new Date() }));
  worst = Math.max(worst, ms);
  console.log(`| ${name} | ${pattern.length} | ${regexWeight(pattern)} | ${limit} | ${ms.toFixed(0)} ms |`);
}
console.log(`\nworst match: ${worst.toFixed(0)} ms of CPU (goal < 250 ms)`);

// the largest pack accepted: MAX_PACK_CHECKS checks, padded with a long `why:` to just under MAX_PACK_BYTES
const dir = mkdtempSync(join(tmpdir(), 'bench-pack-bounds-'));
const why = 'x'.repeat(Math.floor((MAX_PACK_BYTES - 200) / MAX_PACK_CHECKS) - 170);
const checks = Array.from(
  { length: MAX_PACK_CHECKS },
  (_, i) =>
    `  - id: c${i}\n    title: The heap is the same\n    severity: high\n    why: ${why}\n    read: { jvm_option: -Xmx }\n    expect: { same_on_nodes: true, at_most: 31g }\n`,
);
const file = join(dir, 'big.yml');
writeFileSync(file, `smdoctor_pack: 1\nname: big\nchecks:\n${checks.join('')}`);
const bin = join(import.meta.dirname, '..', 'bin', 'smdoctor.js');
const run = spawnSync('/usr/bin/time', ['-f', '%U %S %M', 'node', bin, 'pack', 'validate', file], { encoding: 'utf8' });
const [user, sys, rssKb] = run.stderr.trim().split('\n').at(-1)!.split(' ').map(Number);
console.log(`\n${run.stdout.trim()} (${(MAX_PACK_BYTES / 1024).toFixed(0)} KiB at most)`);
console.log(
  `pack validate: ${(user! + sys!).toFixed(2)} s of CPU, peak RSS ${(rssKb! / 1024).toFixed(0)} MiB (goal < 5 s, 250 MiB)`,
);
