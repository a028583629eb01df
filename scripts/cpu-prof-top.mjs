#!/usr/bin/env node
// The top self-time frames of a V8 CPU profile (`node --cpu-prof`), and the self time by file or package.
// Usage: node scripts/cpu-prof-top.mjs FILE.cpuprofile|DIR [--from US] [--to US] [--top 25]
//   DIR: its newest .cpuprofile. --from/--to: only the samples in that window of CLOCK_MONOTONIC µs (the clock of
//   the profile's timestamps; bench:serve prints the window of the steady cycles).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { from: { type: 'string' }, to: { type: 'string' }, top: { type: 'string', default: '25' } },
});
if (positionals.length !== 1) {
  console.error('usage: node scripts/cpu-prof-top.mjs FILE.cpuprofile|DIR [--from US] [--to US] [--top N]');
  process.exit(2);
}
let file = resolve(positionals[0]);
if (statSync(file).isDirectory()) {
  const newest = readdirSync(file)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(file, f))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!newest) throw new Error(`no .cpuprofile in ${file}`);
  file = newest;
}
const prof = JSON.parse(readFileSync(file, 'utf8'));
const from = values.from === undefined ? -Infinity : Number(values.from);
const to = values.to === undefined ? Infinity : Number(values.to);
const root = resolve(import.meta.dirname, '..');
const byId = new Map(prof.nodes.map((n) => [n.id, n]));

/** A frame as people read it: name, then the file (relative to the repository) and its line from 1. */
function frameOf(n) {
  const f = n.callFrame;
  const url = f.url.replace(/^file:\/\//, '');
  const where = url ? `${url.startsWith(root) ? relative(root, url) : url}:${f.lineNumber + 1}` : '';
  return { name: f.functionName || (url ? '(anonymous)' : f.functionName), where, url };
}
/** Where a frame's code lives: a package under node_modules, a file of ours, node's own, or V8's pseudo-frames. */
function moduleOf({ name, url }) {
  if (!url) return name;
  if (url.startsWith('node:')) return 'node: (built-in modules)';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return `npm: ${m[1]}`;
  return url.startsWith(root) ? relative(root, url) : url;
}

// each sample's self time: until the next sample (the way DevTools counts it)
const self = new Map();
let t = prof.startTime;
let window = 0;
for (let i = 0; i < prof.samples.length; i++) {
  t += prof.timeDeltas[i];
  const dt = prof.timeDeltas[i + 1] ?? 0;
  if (t < from || t > to) continue;
  window += dt;
  self.set(prof.samples[i], (self.get(prof.samples[i]) ?? 0) + dt);
}
const frames = new Map();
const modules = new Map();
let busy = 0;
for (const [id, us] of self) {
  const f = frameOf(byId.get(id));
  if (f.name === '(idle)') continue;
  busy += us;
  const key = `${f.name} ${f.where}`.trim();
  frames.set(key, (frames.get(key) ?? 0) + us);
  const mod = moduleOf(f);
  modules.set(mod, (modules.get(mod) ?? 0) + us);
}
const top = Number(values.top);
const ms = (us) => (us / 1000).toFixed(0).padStart(8);
const pct = (us) => ((100 * us) / busy).toFixed(1).padStart(5);
console.log(`${relative(process.cwd(), file) || file}`);
console.log(`window ${(window / 1e6).toFixed(1)} s, busy (not idle) ${(busy / 1e6).toFixed(1)} s; % of busy`);
console.log('\n  self ms     %  frame');
for (const [key, us] of [...frames].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${ms(us)} ${pct(us)}  ${key}`);
console.log('\n  self ms     %  by file or package');
for (const [key, us] of [...modules].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(`${ms(us)} ${pct(us)}  ${key}`);
