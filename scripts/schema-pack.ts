/**
 * Writes schema/pack.json's sources and matchers from the registries' valibot shapes (src/packs/sources and
 * src/packs/matchers), and docs/packs.md's tables of them: `npm run schema` after adding a source or a matcher. test/unit/packs/schema.test.ts checks that
 * the file is what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packDocs } from './pack-docs.ts';
import { packSchema } from './pack-schema.ts';

const file = new URL('../schema/pack.json', import.meta.url);
const text = packSchema(readFileSync(file, 'utf8'));
writeFileSync(file, text);
console.log(`wrote ${fileURLToPath(file)}`);
const docs = new URL('../docs/packs.md', import.meta.url);
writeFileSync(docs, packDocs(readFileSync(docs, 'utf8')));
console.log(`wrote the tables of ${fileURLToPath(docs)}`);
