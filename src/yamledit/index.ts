/** Comment-keeping reads and edits of engine and dashboards configs, with diffs. */
export { parseYaml, type ParsedYaml } from './parse.ts';
export { readKey, scalarLeaves } from './read.ts';
export { setScalar, setList } from './set.ts';
export { unifiedDiff } from './diff.ts';
export type { EditResult } from './types.ts';
export { decodeConfig, encodeConfig, fileBytes } from './bytes.ts';
