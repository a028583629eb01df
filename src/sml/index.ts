/** SML analysis for the keyword-autocompletion migration (docs/migration.md). Pure: no I/O. */
export {
  explain,
  explainDetailed,
  explainPrepared,
  toOriginal,
  type ExplainContext,
  type MappingsSource,
} from './explain.ts';
export { needsWork } from './needs.ts';
export { MappingIndex, type FieldMapping, type FieldResolution } from './mappings.ts';
export { lex, type Token } from './lexer.ts';
export type { TokenKind } from './toks.ts';
export { parse, type Command, type Comparison, type Pattern, type Pipeline } from './parser.ts';
export { expand, type ExpNode, type Seg } from './macros.ts';
export { macroTable, parseCall, substitute } from './calls.ts';
export { compilePattern, matchPattern, matchIndices } from './patterns.ts';
export { collectRefs, refsOf, type QueryRefs } from './refs.ts';
export { prepare, type Prepared } from './prepare.ts';
export { SML_ERROR_CODES, MAX_MACRO_DEPTH, type SmlError, type SmlErrorCode } from './errors.ts';
export type { Explanation, FieldObject, FieldStatus, MacroDef, MacroNode, RawMappings } from './types.ts';
