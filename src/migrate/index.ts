/** The keyword-autocompletion migration commands (`smdoctor migrate`, docs/migration.md). */
export { explainWith, exitCodeOf, type ExplainSources } from './explain.ts';
export {
  clusterMacros,
  clusterMappings,
  staticMacros,
  staticMappings,
  DEFAULT_MACROS_INDEX,
  MACROS_INDEX_VAR,
  type MacrosProvider,
  type MappingsProvider,
} from './providers.ts';
export { loadMacrosFile, loadMappingsFile, parseMacros, parseMappings } from './files.ts';
export { readQuery } from './query.ts';
export { renderText, renderMarkdown, lineCol } from './render.ts';
