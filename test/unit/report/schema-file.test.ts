/** schema/report.json is written from the model's valibot shapes (npm run schema), never by hand. */
import t from 'tap';
import { readFileSync } from 'node:fs';
import * as v from 'valibot';
import { reportSchema } from '../../../scripts/report-schema.ts';
import { ReportShape } from '../../../src/model/index.ts';
import { SCHEMA_VERSION } from '../../../src/base/version.ts';
import { schemaErrors } from '../../helpers/schema.ts';
import { sample } from '../../helpers/report/sample.ts';

const file = new URL('../../../schema/report.json', import.meta.url);

t.test('schema/report.json is what the model makes (npm run schema)', async (t) => {
  t.equal(reportSchema(), readFileSync(file, 'utf8'), 'regenerated, it is the same');
});

t.test("the published schema holds this smdoctor's schema_version; the reader takes any, for diff", async (t) => {
  const other = { ...sample(), schema_version: SCHEMA_VERSION + 1 };
  t.not(schemaErrors(other).length, 0, 'schema/report.json refuses another version');
  t.ok(v.safeParse(ReportShape, other).success, 'the reader reads it');
});
