/** The explanation structure of the vendor's single-query check (original, expansion, macros, replacement, errors, search_fields) and the inputs of explain(). */

import type { SmlError } from './errors.ts';

export type FieldStatus =
  'text_op_added' | 'manual_review' | 'has_text_op' | 'no_keyword_subfield' | 'not_text' | 'unmapped';

export interface FieldObject {
  /** Offset of the field name in `expansion`. */
  position: number;
  original: string;
  name: string;
  /** Mapped type; distinct types sorted and joined by `,` when indices disagree; '' when unmapped. */
  type: string;
  hasTextOp: boolean;
  message: string;
  status: FieldStatus;
}

export interface MacroNode {
  /** Offset of the call in the text it was written in (original, or the parent's expanded definition). */
  expansion_position: number;
  original: string;
  expansion: string;
  name: string;
  macros: MacroNode[];
  search_fields: FieldObject[];
}

export interface Explanation {
  original: string;
  expansion: string;
  macros: MacroNode[];
  replacement: string;
  errors: SmlError[];
  search_fields: FieldObject[];
}

export interface MacroDef {
  name: string;
  args: string[];
  definition: string;
}

/** A saved `GET _mapping` or `GET _mapping/field/…` response: index name → { mappings }. */
export type RawMappings = Record<string, unknown>;
