/** Writes the check list (CHECK_IDS) into schema/report.json's check-id enum: `npm run schema` after adding a check. */
import { readFileSync, writeFileSync } from 'node:fs';
import { CHECK_IDS } from '../src/model/checks.ts';

const file = new URL('../schema/report.json', import.meta.url);
const schema = JSON.parse(readFileSync(file, 'utf8')) as { $defs: Record<string, { enum?: unknown[] }> };
schema.$defs['check-id']!.enum = [...CHECK_IDS];
writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
