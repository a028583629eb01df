/** Parse a config with yaml's Document API and find dotted keys however they are nested. */
import { LineCounter, parseDocument, isMap, isScalar, isSeq, type Document, type Node, type Pair } from 'yaml';
import type { YamlIssue, YamlStyle } from './types.ts';
import { aliasBombAt } from './aliases.ts';
import { aliasBombMessage } from '../base/yaml-aliases.ts';
import { yaml11Breaks } from '../base/yaml11.ts';

export interface ParsedYaml {
  text: string;
  doc: Document.Parsed;
  lines: LineCounter;
  /** Parse errors plus keys written twice (also across flat/nested spellings). */
  errors: YamlIssue[];
}

/** One place a dotted key is written: the pair, and its value node when not empty. */
export interface KeyHit {
  pair: Pair;
  value: Node | null;
}

export function parseYaml(text: string): ParsedYaml {
  const lines = new LineCounter();
  // uniqueKeys stays on: the engine refuses a key written twice, so do we. The engine's YAML 1.1 ends a line at
  // NEL, U+2028 and U+2029 too: a setting hidden behind one is a setting it loads, so we read it as well.
  const doc = parseDocument(yaml11Breaks(text), { lineCounter: lines, keepSourceTokens: false, prettyErrors: false });
  const parsed: ParsedYaml = { text, doc, lines, errors: [] };
  const seen = new Set<string>();
  const add = (issue: YamlIssue) => {
    const id = `${issue.line}:${issue.col}`;
    if (seen.has(id)) return;
    parsed.errors.push(issue);
    seen.add(id);
  };
  for (const e of doc.errors) add(issueAt(parsed, e.pos[0], e.code, e.message.split('\n')[0]));
  if (doc.contents !== null && !isMap(doc.contents)) {
    add(issueAt(parsed, doc.contents.range?.[0] ?? 0, 'NOT_A_MAP', 'the document is not a mapping of settings'));
  }
  if (isMap(doc.contents)) checkDottedDuplicates(parsed, doc.contents, '', new Map(), add);
  // only a document that parsed: a bomb would otherwise expand in whoever reads a key
  const bomb = parsed.errors.length === 0 ? aliasBombAt(doc) : undefined;
  if (bomb !== undefined) add(issueAt(parsed, bomb, 'ALIAS_LIMIT', aliasBombMessage()));
  return parsed;
}

export function issueAt(p: ParsedYaml, offset: number, code: string, message: string): YamlIssue {
  const { line, col } = p.lines.linePos(offset);
  return { code, message, line, col };
}

export function posOf(p: ParsedYaml, offset: number): { line: number; col: number } {
  return p.lines.linePos(offset);
}

/** `node.attr.x` flat and `node: {attr: {x}}` nested are the same setting: written twice is a startup error. */
function checkDottedDuplicates(
  p: ParsedYaml,
  map: Node,
  prefix: string,
  leaves: Map<string, number>,
  add: (i: YamlIssue) => void,
): void {
  if (!isMap(map)) return;
  for (const pair of map.items) {
    if (!isScalar(pair.key)) continue;
    const full = prefix ? `${prefix}.${String(pair.key.value)}` : String(pair.key.value);
    if (isMap(pair.value) && pair.value.items.length > 0) {
      checkDottedDuplicates(p, pair.value, full, leaves, add);
      continue;
    }
    const at = pair.key.range?.[0] ?? 0;
    const first = leaves.get(full);
    if (first === undefined) leaves.set(full, at);
    else add(issueAt(p, at, 'DUPLICATE_KEY', `key ${full} is set twice (first at line ${posOf(p, first).line})`));
  }
}

/** Every place the dotted key is written: flat `a.b.c`, nested `a: {b: {c}}` or mixed `a.b: {c}`. */
export function findKey(p: ParsedYaml, key: string): KeyHit[] {
  const hits: KeyHit[] = [];
  const walk = (map: unknown, rest: string) => {
    if (!isMap(map)) return;
    for (const pair of map.items) {
      if (!isScalar(pair.key)) continue;
      const k = String(pair.key.value);
      if (k === rest) hits.push({ pair, value: (pair.value as Node | null) ?? null });
      else if (rest.startsWith(`${k}.`)) walk(pair.value, rest.slice(k.length + 1));
    }
  };
  walk(p.doc.contents, key);
  return hits;
}

export function styleOf(node: Node | null): YamlStyle {
  if (node === null) return 'plain';
  if (isSeq(node)) return node.flow ? 'flow-seq' : 'block-seq';
  if (isMap(node)) return 'map';
  if (isScalar(node)) {
    if (node.type === 'QUOTE_DOUBLE') return 'double';
    if (node.type === 'QUOTE_SINGLE') return 'single';
    if (node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED') return 'block-scalar';
  }
  return 'plain';
}
