/** The status and message of one field (the status table of docs/migration.md). */

import type { FieldResolution } from './mappings.ts';
import type { Comparison } from './parser.ts';
import type { FieldObject, FieldStatus } from './types.ts';

/**
 * One field's status. `macro`: the macro whose definition produced the field (undefined when written in `original`);
 * `doubt`: the command holds an error, so nothing there is rewritten without doubt; `source`: the `source` patterns,
 * for messages (undefined when there is none). Plain arguments: the explanation's loop builds no object per field.
 */
export function fieldOf(
  c: Comparison,
  r: FieldResolution,
  macro: string | undefined,
  doubt: boolean,
  source: string | undefined,
): FieldObject {
  const field = c.field;
  const f = `\`${field}\``;
  let status: FieldStatus;
  let message: string;
  if (c.textOp) {
    status = 'has_text_op';
    message = `${f}: the text operator is already applied; nothing to change`;
  } else if (!r.type) {
    status = 'unmapped';
    message =
      source === undefined
        ? `${f}: no source command, so its mapping is unknown; nothing changed`
        : `${f} is in no mapping of ${source}; no autocompletion, nothing changed`;
  } else if (r.needsTextOp) {
    if (macro !== undefined) {
      status = 'manual_review';
      message = `${f} is mapped text with a keyword sub-field but comes from macro \`${macro}\`: the macro is shared, rewrite it by hand (add the text operator where this search needs it)`;
    } else if (doubt) {
      status = 'manual_review';
      message = `${f} is mapped text with a keyword sub-field, but its search command has errors: fix them, then add the text operator`;
    } else {
      status = 'text_op_added';
      message = `${f} is mapped text with a keyword sub-field: the text operator was added so that it is not turned into ${field}.keyword`;
    }
  } else if (r.anyText) {
    status = 'no_keyword_subfield';
    message = `${f} is mapped text without a keyword sub-field: no autocompletion, the text operator is not required`;
  } else {
    status = 'not_text';
    message = `${f} is mapped ${r.type}: no autocompletion, nothing changed`;
  }
  return { position: c.start, original: field, name: field, type: r.type, hasTextOp: c.textOp, message, status };
}
