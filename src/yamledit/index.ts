/** Comment-keeping reads and edits of engine and dashboards configs, with diffs. */
export { parseYaml, findKey, type ParsedYaml, type KeyHit } from './parse.ts';
export { readKey, scalarLeaves } from './read.ts';
export { setScalar, setList } from './set.ts';
export { unifiedDiff } from './diff.ts';
export type { YamlIssue, YamlStyle, YamlValue, ReadResult, EditResult } from './types.ts';
export { decodeConfig, encodeConfig, fileBytes, type DecodedFile, type FileEncoding } from './bytes.ts';
