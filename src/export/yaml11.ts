/** The written YAML as PyYAML (Ansible) reads it: YAML 1.1, where NEL, U+2028 and U+2029 end a line too. */
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { yaml11Breaks } from '../base/yaml11.ts';

/** True when the text, read with YAML 1.1's line breaks and schema, is exactly `meant` (one document). */
export function readsAsMeant(text: string, meant: unknown): boolean {
  const docs = parseAllDocuments(yaml11Breaks(text), { version: '1.1', uniqueKeys: true });
  if (!Array.isArray(docs) || docs.length !== 1 || docs[0]!.errors.length) return false;
  // what the writer left out (an undefined value) is not in the text either
  return isDeepStrictEqual(docs[0]!.toJS({ maxAliasCount: 0 }), JSON.parse(JSON.stringify(meant)));
}
