/** Stable codes of the errors an explanation may hold (listed in docs/migration.md). Positions are offsets into `original`. */

export const SML_ERROR_CODES = {
  /** A `"` string is not closed before the end of the text. */
  UNBALANCED_QUOTE: 'a quoted string is not closed',
  /** A `(` without `)` or a `)` without `(`. */
  UNBALANCED_PAREN: 'unbalanced parenthesis',
  /** A `[` without `]` or a `]` without `[`. */
  UNBALANCED_BRACKET: 'unbalanced square bracket',
  /** A backquote that opens a macro call is never closed. */
  UNBALANCED_BACKQUOTE: 'a macro call is not closed by a backquote',
  /** A macro call whose text is not `name` or `name(args)`. */
  MACRO_SYNTAX: 'malformed macro call',
  /** No definition with that name. */
  UNKNOWN_MACRO: 'unknown macro',
  /** Definitions with that name exist, none with that number of arguments. */
  MACRO_ARITY: 'wrong number of macro arguments',
  /** A macro expands, directly or not, to a call of itself. */
  MACRO_CYCLE: 'macro cycle',
  /** Nesting deeper than MAX_MACRO_DEPTH. */
  MACRO_DEPTH: 'macros nested too deeply',
  /** Expansion would exceed the size budget (exponential macros). */
  MACRO_TOO_LARGE: 'macro expansion too large',
  /** A `search` command needs a `source` command to resolve its fields. */
  NO_SOURCE: 'no source command',
  /** The `source` patterns match no index of the mappings. */
  NO_INDEX_MATCH: 'source matches no index',
  /** Anything else the grammar does not allow (empty command, missing value, …). */
  SYNTAX: 'syntax error',
} as const;

export type SmlErrorCode = keyof typeof SML_ERROR_CODES;

/** Element of `errors` (the service documents no shape for it: this one is ours). */
export interface SmlError {
  code: SmlErrorCode;
  message: string;
  /** Offset into `original`. */
  position: number;
}

/** Errors while processing carry the offset in the text being analysed; explain() maps them to `original`. */
export interface RawError {
  code: SmlErrorCode;
  message: string;
  pos: number;
}

export const MAX_MACRO_DEPTH = 16;
/** Upper bounds so that exponential macros cannot hang the process. */
export const MAX_MACRO_CALLS = 10_000;
export const MAX_EXPANSION_CHARS = 1_000_000;

/** The error list of everything that has none, shared (frozen: nothing may add to it). */
export const NO_ERRORS: readonly RawError[] = Object.freeze([]);
