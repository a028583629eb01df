/** A config whose aliases expand past the limit ("billion laughs") is an issue of its file: every reader then sees it unusable. */
import { visit, type Document } from 'yaml';
import { MAX_YAML_ALIASES } from '../base/yaml-aliases.ts';

/** Offset of the first alias when the document expands past the limit; undefined when it does not (or has no alias). */
export function aliasBombAt(doc: Document.Parsed): number | undefined {
  let first: number | undefined;
  visit(doc, {
    Alias(_k, node) {
      first = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  if (first === undefined) return undefined;
  try {
    // the yaml library counts expansions as it converts, and stops at the limit: a bomb costs milliseconds
    doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
    return undefined;
  } catch (e) {
    if (e instanceof ReferenceError && /alias/i.test(e.message)) return first;
    // any other conversion failure (an unknown anchor) is already among the parse errors
    return undefined;
  }
}
