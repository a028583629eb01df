/** The status and message of one field (SML.md §4 status table). */

import type { FieldResolution } from './mappings.ts';
import type { Comparison } from './parser.ts';
import type { FieldObject, FieldStatus } from './types.ts';

export interface FieldContext {
  /** Name of the macro whose definition produced the field; undefined when written in `original`. */
  macro?: string;
  /** The command holds an error: nothing there is rewritten without doubt. */
  doubt: boolean;
  /** The `source` patterns, for messages; undefined when there is no source. */
  source?: string;
}

export function fieldObject(c: Comparison, r: FieldResolution, fc: FieldContext): FieldObject {
  const [status, message] = decide(c, r, fc);
  return { position: c.start, original: c.field, name: c.field, type: r.type, hasTextOp: c.textOp, message, status };
}

function decide(c: Comparison, r: FieldResolution, fc: FieldContext): [FieldStatus, string] {
  const f = `\`${c.field}\``;
  if (c.textOp) return ['has_text_op', `${f}: the text operator is already applied; nothing to change`];
  if (!r.type) {
    return [
      'unmapped',
      fc.source === undefined
        ? `${f}: no source command, so its mapping is unknown; nothing changed`
        : `${f} is in no mapping of ${fc.source}; no autocompletion, nothing changed`,
    ];
  }
  if (r.needsTextOp) {
    if (fc.macro !== undefined) {
      return [
        'manual_review',
        `${f} is mapped text with a keyword sub-field but comes from macro \`${fc.macro}\`: the macro is shared, rewrite it by hand (add the text operator where this search needs it)`,
      ];
    }
    if (fc.doubt)
      return [
        'manual_review',
        `${f} is mapped text with a keyword sub-field, but its search command has errors: fix them, then add the text operator`,
      ];
    return [
      'text_op_added',
      `${f} is mapped text with a keyword sub-field: the text operator was added so that it is not turned into ${c.field}.keyword`,
    ];
  }
  if (r.anyText)
    return [
      'no_keyword_subfield',
      `${f} is mapped text without a keyword sub-field: no autocompletion, the text operator is not required`,
    ];
  return ['not_text', `${f} is mapped ${r.type}: no autocompletion, nothing changed`];
}
