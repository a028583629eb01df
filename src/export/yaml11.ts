/** The written YAML as PyYAML (Ansible) reads it: YAML 1.1, where NEL, U+2028 and U+2029 end a line too. */
import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments } from 'yaml';

/** YAML 1.1's line breaks besides \n: a comment or plain scalar ends at each of them. */
const YAML11_BREAKS = /\r\n?|\u0085|\u2028|\u2029/g;

/** True when the text, read with YAML 1.1's line breaks and schema, is exactly `meant` (one document). */
export function readsAsMeant(text: string, meant: unknown): boolean {
  const docs = parseAllDocuments(text.replace(YAML11_BREAKS, '\n'), { version: '1.1', uniqueKeys: true });
  if (!Array.isArray(docs) || docs.length !== 1 || docs[0]!.errors.length) return false;
  // what the writer left out (an undefined value) is not in the text either
  return isDeepStrictEqual(docs[0]!.toJS({ maxAliasCount: 0 }), JSON.parse(JSON.stringify(meant)));
}
