/** Read one dotted setting from a config text, with its line; list its scalars. */
import { isMap, isScalar, isSeq } from 'yaml';
import { parseYaml, findKey, posOf, styleOf, issueAt, type ParsedYaml } from './parse.ts';
import type { ReadResult } from './types.ts';

/** Reads `key` whether written flat, nested or mixed. Bad YAML or a duplicate gives errors, never a throw. */
export function readKey(input: string | ParsedYaml, key: string): ReadResult {
  const p = typeof input === 'string' ? parseYaml(input) : input;
  if (p.errors.length > 0) return { found: null, errors: p.errors };
  const hits = findKey(p, key);
  if (hits.length === 0) return { found: null, errors: [] };
  if (hits.length > 1) {
    const second = hits[1].pair.key as { range?: [number, number, number] };
    return { found: null, errors: [issueAt(p, second.range?.[0] ?? 0, 'DUPLICATE_KEY', `key ${key} is set twice`)] };
  }
  const { pair, value } = hits[0];
  const anchor = value?.range?.[0] ?? (pair.key as { range?: [number, number, number] }).range?.[0] ?? 0;
  const { line, col } = posOf(p, anchor);
  const js = value === null ? null : value.toJSON();
  return { found: { key, value: js, line, col, style: styleOf(value) }, errors: [] };
}

/** Every scalar of the config with the dotted key it is written under (list items under their list's key), parsed or not. */
export function scalarLeaves(p: ParsedYaml): Array<{ key: string; value: unknown }> {
  const out: Array<{ key: string; value: unknown }> = [];
  const walk = (node: unknown, key: string) => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const k = isScalar(pair.key) ? String(pair.key.value) : '';
        walk(pair.value, key && k ? `${key}.${k}` : key || k);
      }
    } else if (isSeq(node)) for (const item of node.items) walk(item, key);
    else if (isScalar(node)) out.push({ key, value: node.value });
  };
  walk(p.doc.contents, '');
  return out;
}
