/**
 * schema/report.json converted from the model's valibot shapes (src/model/report-shape.ts, report.ts, plan.ts): the
 * published schema_version is this smdoctor's. Used by `npm run schema` and by the unit test that checks the file.
 */
import * as v from 'valibot';
import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema';
import { SCHEMA_VERSION } from '../src/base/version.ts';
import {
  ACTION_SHAPES,
  ActionShape,
  AnyObject,
  CheckIdShape,
  CheckResultShape,
  ClusterShape,
  FindingShape,
  FolderShape,
  PinsShape,
  TopologyShape,
  VendorCheckIdShape,
  reportShape,
} from '../src/model/index.ts';

/** The $defs names of the published schema: each shape written once there, referred to elsewhere. */
const DEFINITIONS: Record<string, v.GenericSchema> = {
  'check-id': VendorCheckIdShape,
  'any-check-id': CheckIdShape,
  cluster: ClusterShape,
  check: CheckResultShape,
  finding: FindingShape,
  pins: PinsShape,
  action: ActionShape,
  ...ACTION_SHAPES,
  topology: TopologyShape,
  folder: FolderShape,
};

type Node = Record<string, unknown>;
const isNode = (x: unknown): x is Node => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The schema written as a person would: `type: [string, null]` for a nullable, no empty `required`, an enum alone. */
function tidy(x: unknown): unknown {
  if (Array.isArray(x)) return x.map(tidy);
  if (!isNode(x)) return x;
  const out: Node = Object.fromEntries(Object.entries(x).map(([k, val]) => [k, tidy(val)]));
  if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  if (Array.isArray(out.enum) && out.type === 'string') delete out.type;
  const any = out.anyOf;
  // a union of plain types, or one type or null: one `type` list (the other keywords apply to their own type only)
  if (Array.isArray(any) && any.every(isNode) && any.every((o) => typeof o.type === 'string' && !('$ref' in o))) {
    const bare = any.filter((o) => Object.keys(o).length > 1);
    if (bare.length <= 1) {
      delete out.anyOf;
      return { ...(bare[0] ?? {}), ...out, type: any.map((o) => o.type) };
    }
  }
  return out;
}

/** The text of schema/report.json as it must be. */
export function reportSchema(): string {
  const version = v.pipe(
    v.literal(SCHEMA_VERSION),
    v.description(
      `shape of this report (${SCHEMA_VERSION} from 0.4: pack checks, waived); a reviewed plan of another schema_version is refused`,
    ),
  );
  const converted = toJsonSchema(reportShape(version), {
    target: 'draft-2020-12',
    definitions: DEFINITIONS,
    errorMode: 'throw',
    // an object of any fields is `type: object`: JSON's keys are strings already
    overrideSchema: ({ valibotSchema }) => (valibotSchema === AnyObject ? { type: 'object' } : undefined),
    // a slash needs no escape in a JSON Schema pattern
    overrideAction: ({ valibotAction, jsonSchema }) =>
      valibotAction.type === 'regex'
        ? { ...jsonSchema, pattern: String(jsonSchema.pattern).replaceAll('\\/', '/') }
        : undefined,
  }) as JsonSchema & Node;
  const { $schema, ...rest } = tidy(converted) as Node;
  const schema = { $schema, $id: 'urn:smdoctor:schema:report', title: 'smdoctor report', ...rest };
  return `${JSON.stringify(schema, null, 2)}\n`;
}
