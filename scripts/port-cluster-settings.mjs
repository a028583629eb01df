#!/usr/bin/env node
/**
 * Builds lab/src/api/cluster-settings.json, the cluster settings the lab knows, from OpenSearch's own registry: each
 * emulated line's ClusterSettings.java (BUILT_IN_CLUSTER_SETTINGS; the feature-flagged sets are listed apart, as a
 * release without feature flags does not register them) names Setting constants, and each constant's key, whether it
 * is a prefix (affix/group) setting, and its Dynamic/Final properties are read from its defining class. Sources, each
 * naming repository, path and commit: test/fixtures/opensearch-settings/<line>/ClusterSettings.java and
 * test/fixtures/opensearch-settings/classes/<Class>.java. A constant whose class was not read, or whose stored class
 * does not define it, is listed as unresolved; the lab's earlier hand-written keys stand in for those that had one.
 *
 *   node scripts/port-cluster-settings.mjs           writes the file
 *   node scripts/port-cluster-settings.mjs --stdout  prints what it would write
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FIXTURES = join(ROOT, 'test/fixtures/opensearch-settings');
const OUT = join(ROOT, 'lab/src/api/cluster-settings.json');
const LINES = ['2.x', '3.x'];

// The lab's hand-written keys (before this generator) for registry constants no fixture resolves; all were dynamic.
const HAND = Object.fromEntries(
  [
    'CANCELLATION_RATIO',
    'CANCELLATION_RATE',
    'CANCELLATION_BURST',
    'HEAP_PERCENT_THRESHOLD',
    'HEAP_VARIANCE_THRESHOLD',
    'HEAP_MOVING_AVERAGE_WINDOW_SIZE',
    'CPU_TIME_MILLIS_THRESHOLD',
    'ELAPSED_TIME_MILLIS_THRESHOLD',
    'TOTAL_HEAP_PERCENT_THRESHOLD',
  ].map((c) => [
    `SearchTaskSettings.SETTING_${c}`,
    `search_backpressure.search_task.${c.toLowerCase().replace('heap_variance_threshold', 'heap_variance')}`,
  ]),
);

const stripComments = (s) => s.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/[^\n]*/g, '');

/** The text from `open` (an index of '(') to its matching ')', both excluded; string literals skipped. */
function inside(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = text.indexOf('"', i + 1);
    else if (c === '(' || c === '{') depth++;
    else if ((c === ')' || c === '}') && --depth === 0) return text.slice(open + 1, i);
  }
  throw new Error(`unbalanced text from ${open}`);
}

/** Splits on commas outside parentheses, braces and string literals. */
function topLevel(text) {
  const parts = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') i = text.indexOf('"', i + 1);
    else if (c === '(' || c === '{' || c === '<') depth++;
    else if (c === ')' || c === '}' || c === '>') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter(Boolean);
}

/** The registry's entries, as written: `Class.CONSTANT` or any other expression. */
function registry(line) {
  const text = stripComments(readFileSync(join(FIXTURES, line, 'ClusterSettings.java'), 'utf8'));
  const list = (name) => {
    const at = text.indexOf(name);
    const open = text.indexOf('Arrays.asList(', at) + 'Arrays.asList'.length;
    return topLevel(inside(text, open));
  };
  // two entries the stored text runs together without a comma are still two entries
  const built = list('BUILT_IN_CLUSTER_SETTINGS').flatMap((e) => (/^[\w.]+(\s+[\w.]+)+$/.test(e) ? e.split(/\s+/) : e));
  const flagged = text.slice(text.indexOf('FEATURE_FLAGGED_CLUSTER_SETTINGS'));
  const flaggedEntries = [...flagged.matchAll(/List\.of\(([^()]*)\)/g)]
    .flatMap((m) => topLevel(m[1]))
    .filter((e) => !e.startsWith('FeatureFlags.'));
  const header = readFileSync(join(FIXTURES, line, 'ClusterSettings.java'), 'utf8').match(/@ ([0-9a-f]{40})/)[1];
  return { commit: header, built: [...new Set(built.map((e) => e.replace(/\s+/g, ' ')))], flagged: flaggedEntries };
}

/** Evaluates a key expression of string literals and String constants joined by `+`. */
function evalKey(expr, strings) {
  let out = '';
  for (const part of expr.split('+').map((p) => p.trim())) {
    const lit = part.match(/^"([^"]*)"$/);
    if (lit) out += lit[1];
    else if (strings.has(part)) out += strings.get(part);
    else return null;
  }
  return out;
}

/** Every Setting constant a class fixture declares: key, prefix or exact, Dynamic, Final. */
function classSettings(file) {
  const raw = readFileSync(file, 'utf8');
  const source = `opensearch-project/OpenSearch ${raw.match(/server\/src\/main\/java\/\S+/)[0]} @ ${raw.match(/@ ([0-9a-f]{40})/)[1]}`;
  const text = stripComments(raw);
  const strings = new Map(
    [...text.matchAll(/static final String (\w+)\s*=\s*"([^"]*)"\s*;/g)].map((m) => [m[1], m[2]]),
  );
  const settings = new Map();
  // the factory may be called bare where the class imports it statically (TransportSettings)
  for (const m of text.matchAll(
    /static final (?:\w+\.)*Setting[\w.<>?, ]*?\s(\w+)\s*=\s*(new Setting<[\w.]*>|(?:Setting\s*\.\s*)?(\w+Setting|simpleString))\s*\(/g,
  )) {
    const open = m.index + m[0].length - 1;
    const body = inside(text, open);
    const key = evalKey(topLevel(body)[0], strings);
    if (key === null) continue;
    const prefix = m[3] === 'prefixKeySetting' || m[3] === 'groupSetting';
    // an affix setting's key is <prefix><namespace>.<suffix>, as Setting.AffixKey matches it
    const suffix = m[3] === 'affixKeySetting' ? evalKey(topLevel(body)[1], strings) : null;
    if (m[3] === 'affixKeySetting' && suffix === null) continue;
    settings.set(m[1], {
      key,
      ...(suffix === null ? {} : { suffix }),
      match: prefix ? 'prefix' : suffix !== null ? 'affix' : 'exact',
      dynamic: /\bDynamic\b/.test(body),
      final: /\bFinal\b/.test(body),
    });
  }
  return { source, settings };
}

function loadClasses() {
  const dir = join(FIXTURES, 'classes');
  return new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith('.java'))
      .sort()
      .map((f) => [f.replace(/\.java$/, ''), classSettings(join(dir, f))]),
  );
}

function buildLine(line, classes) {
  const { commit, built, flagged } = registry(line);
  const settings = [];
  const unresolved = [];
  const hand = [];
  for (const entry of built) {
    const [, cls, constant] = entry.match(/^(\w+)\.([A-Z][A-Z0-9_]*)$/) ?? [];
    const found = cls ? classes.get(cls)?.settings.get(constant) : undefined;
    if (found) settings.push({ ...found, constant: entry });
    else if (HAND[entry]) {
      hand.push(entry);
      settings.push({ key: HAND[entry], match: 'exact', dynamic: true, final: false, constant: entry, hand: true });
    } else unresolved.push(entry);
  }
  settings.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return {
    registry: `opensearch-project/OpenSearch server/src/main/java/org/opensearch/common/settings/ClusterSettings.java @ ${commit}`,
    unresolved,
    handWritten: hand,
    featureFlagged: flagged,
    settings,
  };
}

export function build() {
  const classes = loadClasses();
  const lines = Object.fromEntries(LINES.map((l) => [l, buildLine(l, classes)]));
  const doc = {
    generated: 'by scripts/port-cluster-settings.mjs from test/fixtures/opensearch-settings; do not edit',
    classes: Object.fromEntries([...classes].map(([name, c]) => [name, c.source])),
    lines,
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = build();
  if (process.argv.includes('--stdout')) process.stdout.write(text);
  else writeFileSync(OUT, text);
}
