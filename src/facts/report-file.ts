/** A JSON report read back from a file (a kept report, diff's files, a plan): errors name the file and the field (exit 2). */
import * as v from 'valibot';
import { InputError } from '../base/errors.ts';
import { parseLong } from '../base/json-long.ts';
import { MAX_JSON_DEPTH, tooDeepAt } from '../base/json-depth.ts';
import { ReportShape } from '../model/index.ts';
import { issueText } from '../base/valibot-issue.ts';

/** The file's JSON, no deeper than MAX_JSON_DEPTH; `want` ends each message: what to give instead. */
export function parseJsonFile(text: string, file: string, want: string): unknown {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (cause) {
    throw new InputError(`${file}: not JSON (${(cause as Error).message}): ${want}`, { cause });
  }
  const deep = tooDeepAt(doc);
  if (deep !== null)
    throw new InputError(`${file}: field ${deep || '(top)'} nests deeper than ${MAX_JSON_DEPTH} levels: ${want}`);
  // read again, no deeper than the limit, where an integer past 2^53 may be: it stays exact (a BigInt)
  return /\d{16}/.test(text) ? parseLong(text) : doc;
}

/** What first makes doc not a report of schema/report.json's shape (`field clusters[0].checks is undefined…`), or null. */
export function reportShapeProblem(doc: unknown): string | null {
  const r = v.safeParse(ReportShape, doc);
  return r.success ? null : issueText(r.issues[0], 'the report');
}
