/**
 * Whether a query's explanation would hold errors or a field to rewrite or review: the same decision as
 * the explanation's statuses, without building it. A scan of stored queries, most of which need nothing,
 * builds the full explanation only for the queries this answers true for.
 */
import { sourceFor } from './explain.ts';
import type { MappingIndex } from './mappings.ts';
import type { Pattern } from './parser.ts';
import type { Prepared } from './prepare.ts';

/**
 * True when explainPrepared(p, index) has errors, a `manual_review` field or a `text_op_added` one
 * (so a replacement different from the original); false only when it has none of them.
 */
export function needsWork(p: Prepared, index: MappingIndex): boolean {
  if (p.exp.errors.length > 0 || p.expErrors.length > 0) return true;
  const commands = p.pipeline.commands;
  let lastSrc: object | undefined;
  let indices: readonly string[] | undefined;
  for (const cmd of commands) {
    if (cmd.kind !== 'search') continue;
    const src = sourceFor(cmd, commands);
    if (!src) return true; // NO_SOURCE
    if (src !== lastSrc) {
      lastSrc = src;
      indices = src.patterns.length ? index.match(values(src.patterns)) : undefined;
      if (indices && indices.length === 0) return true; // NO_INDEX_MATCH
    }
    if (!indices) continue; // no pattern: every field is unmapped
    for (const c of cmd.comparisons) {
      // text with a keyword sub-field and no text operator: rewritten, or left to a person
      if (!c.textOp && index.resolve(indices, c.field).needsTextOp) return true;
    }
  }
  return false;
}

function values(patterns: readonly Pattern[]): string[] {
  const out: string[] = [];
  for (let k = 0; k < patterns.length; k++) out.push(patterns[k].value);
  return out;
}
