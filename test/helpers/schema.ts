/** Every JSON report a test sees is checked against the published schema (schema/report.json). */
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Test } from 'tap';

const schema: unknown = JSON.parse(readFileSync(new URL('../../schema/report.json', import.meta.url), 'utf8'));
const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema as object);

/** The schema's complaints about a report (its JSON text or the parsed value), one line each; [] when valid. */
export function schemaErrors(report: string | unknown): string[] {
  const doc: unknown = typeof report === 'string' ? JSON.parse(report) : report;
  if (validate(doc)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}

/** Asserts the report matches schema/report.json. */
export function assertSchema(t: Test, report: string | unknown, what = 'the report matches schema/report.json'): void {
  t.strictSame(schemaErrors(report), [], what);
}

/** JSON.parse of a report that must match the schema: throws (failing the test) with the schema's complaints. */
export function parseReport<T = unknown>(json: string): T {
  const errors = schemaErrors(json);
  if (errors.length)
    throw new Error(`the report does not match schema/report.json:\n${errors.slice(0, 10).join('\n')}`);
  return JSON.parse(json) as T;
}
