/**
 * Writes schema/report.json from the model's valibot shapes (src/model/report-shape.ts, report.ts, plan.ts):
 * `npm run schema` after changing the report's shape. test/unit/report/schema-file.test.ts checks the file is this.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { reportSchema } from './report-schema.ts';

const file = new URL('../schema/report.json', import.meta.url);
writeFileSync(file, reportSchema());
console.log(`wrote ${fileURLToPath(file)}`);
