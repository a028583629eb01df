/** SML analysis for the keyword-autocompletion migration (docs/migration.md). Pure: no I/O. */
export { explain, explainDetailed, explainPrepared, type ExplainContext } from './explain.ts';
export { needsWork } from './needs.ts';
export { MappingIndex } from './mappings.ts';
export { compilePattern, matchPattern } from './patterns.ts';
export { collectRefs } from './refs.ts';
export { prepare, type Prepared } from './prepare.ts';
export type { SmlError } from './errors.ts';
export type { Explanation, FieldObject, FieldStatus, MacroDef, MacroNode, RawMappings } from './types.ts';
