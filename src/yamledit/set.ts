/**
 * Comment-keeping edits. Nodes are located with yaml's Document API; the change is spliced into the
 * original text at the node's source range, so every other byte stays as it was. Each edit is re-parsed
 * and read back before it is returned.
 */
import { isMap, isScalar, isSeq, type Node } from 'yaml';
import { parseYaml, findKey, issueAt, posOf, styleOf, type ParsedYaml } from './parse.ts';
import { readKey } from './read.ts';
import { scalarText, applySplices, eolOf, type Splice } from './format.ts';
import { spliceList } from './list.ts';
import type { EditResult, YamlIssue } from './types.ts';

function refuse(text: string, errors: YamlIssue[]): EditResult {
  return { ok: false, text, changed: false, errors };
}

/** The single place `key` is written, or a refusal (bad YAML, duplicates, a mapping where a value belongs). */
function target(p: ParsedYaml, key: string): { node: Node | null; found: boolean; keyAt: number } | YamlIssue[] {
  if (p.errors.length > 0) return p.errors;
  const hits = findKey(p, key);
  if (hits.length > 1) {
    const at = (hits[1].pair.key as Node).range?.[0] ?? 0;
    return [issueAt(p, at, 'DUPLICATE_KEY', `key ${key} is set twice`)];
  }
  if (hits.length === 0) return { node: null, found: false, keyAt: 0 };
  const node = hits[0].value;
  if (node !== null && isMap(node))
    return [issueAt(p, node.range?.[0] ?? 0, 'NOT_A_VALUE', `${key} holds a mapping, not a value`)];
  return { node, found: true, keyAt: (hits[0].pair.key as Node).range?.[0] ?? 0 };
}

/** A new flat `key: value` line at the end: only a block mapping (or an empty file) can take one. */
function appendKey(p: ParsedYaml, key: string, valueText: string): string | YamlIssue[] {
  const c = p.doc.contents;
  if (c !== null && !(isMap(c) && !c.flow)) return [issueAt(p, 0, 'NOT_A_MAP', 'cannot add a key to a flow mapping')];
  const eol = eolOf(p.text);
  // A file that ends without a newline keeps ending without one.
  if (p.text !== '' && !p.text.endsWith('\n')) return `${p.text}${eol}${key}: ${valueText}`;
  return `${p.text}${key}: ${valueText}${eol}`;
}

/** Re-parse and read back: an edit that does not read as intended is refused rather than written. */
function verify(original: string, edited: string, key: string, expected: unknown): EditResult {
  const back = readKey(edited, key);
  if (back.errors.length > 0 || back.found === null || JSON.stringify(back.found.value) !== JSON.stringify(expected)) {
    const why = back.errors[0]?.message ?? `reads back as ${JSON.stringify(back.found?.value)}`;
    return refuse(original, [
      { code: 'EDIT_VERIFY', message: `edit of ${key} did not verify: ${why}`, line: 1, col: 1 },
    ]);
  }
  return { ok: true, text: edited, changed: edited !== original, errors: [], line: back.found.line };
}

/** Text for an empty value (`key:`): spaced so that it neither joins the colon nor a following comment. */
function fillEmpty(text: string, at: number, valueText: string): Splice {
  const before = text[at - 1] === ':' ? ' ' : '';
  const next = text[at];
  const after = next === undefined || /\s/.test(next) ? '' : ' ';
  return { start: at, end: at, text: before + valueText + after };
}

/**
 * Set a scalar setting. Plain stays plain, a quoted value stays quoted in the same quotes (so a quoted
 * "true" becomes the quoted string "false"); an absent key is appended as a flat `key: value` line.
 */
export function setScalar(text: string, key: string, value: string | number | boolean): EditResult {
  const p = parseYaml(text);
  const t = target(p, key);
  if (Array.isArray(t)) return refuse(text, t);
  if (!t.found) {
    const out = appendKey(p, key, scalarText(value, 'plain'));
    return Array.isArray(out) ? refuse(text, out) : verify(text, out, key, value);
  }
  const node = t.node;
  if (node !== null && !isScalar(node))
    return refuse(text, [issueAt(p, node.range?.[0] ?? 0, 'NOT_A_SCALAR', `${key} holds a list, not a value`)]);
  const style = styleOf(node);
  const keepStyle = style === 'single' || style === 'double' ? style : 'plain';
  const valueText = scalarText(value, keepStyle);
  const expected = keepStyle === 'plain' ? value : String(value);
  const range = node?.range;
  if (!range || (node && isScalar(node) && node.value === null && range[0] === range[1])) {
    const at = range?.[0] ?? text.indexOf(':', t.keyAt) + 1;
    return verify(text, applySplices(text, [fillEmpty(text, at, valueText)]), key, expected);
  }
  if (text.slice(range[0], range[1]) === valueText)
    return { ok: true, text, changed: false, errors: [], line: posOf(p, range[0]).line };
  return verify(text, applySplices(text, [{ start: range[0], end: range[1], text: valueText }]), key, expected);
}

/**
 * Set a list of strings (such as `<engine>.hosts`), keeping how it was written: a one-string value stays a
 * string when one value is left, a flow list stays flow, a block list keeps the lines of kept items.
 */
export function setList(text: string, key: string, values: string[]): EditResult {
  const p = parseYaml(text);
  if (values.length === 0)
    return refuse(text, [{ code: 'EMPTY_LIST', message: `${key} cannot be set to an empty list`, line: 1, col: 1 }]);
  const t = target(p, key);
  if (Array.isArray(t)) return refuse(text, t);
  if (!t.found) {
    const valueText =
      values.length === 1
        ? scalarText(values[0], 'plain')
        : `[${values.map((v) => scalarText(v, 'plain')).join(', ')}]`;
    const out = appendKey(p, key, valueText);
    return Array.isArray(out) ? refuse(text, out) : verify(text, out, key, values.length === 1 ? values[0] : values);
  }
  const node = t.node;
  if (node === null || (isScalar(node) && node.value === null && node.range?.[0] === node.range?.[1])) {
    const valueText = `[${values.map((v) => scalarText(v, 'plain')).join(', ')}]`;
    const at = node?.range?.[0] ?? text.indexOf(':', t.keyAt) + 1;
    return verify(text, applySplices(text, [fillEmpty(text, at, valueText)]), key, values);
  }
  if (isScalar(node)) {
    const style = styleOf(node);
    const keep = style === 'single' || style === 'double' ? style : 'plain';
    const valueText =
      values.length === 1 ? scalarText(values[0], keep) : `[${values.map((v) => scalarText(v, keep)).join(', ')}]`;
    const [start, end] = node.range!;
    if (values.length === 1 && node.value === values[0])
      return { ok: true, text, changed: false, errors: [], line: posOf(p, start).line };
    return verify(
      text,
      applySplices(text, [{ start, end, text: valueText }]),
      key,
      values.length === 1 ? values[0] : values,
    );
  }
  if (!isSeq(node))
    return refuse(text, [issueAt(p, node.range?.[0] ?? 0, 'NOT_A_LIST', `${key} is neither a string nor a list`)]);
  const current = node.toJSON() as unknown[];
  if (JSON.stringify(current) === JSON.stringify(values))
    return { ok: true, text, changed: false, errors: [], line: posOf(p, node.range?.[0] ?? 0).line };
  return verify(text, applySplices(text, spliceList(text, node, values)), key, values);
}
