/**
 * schema/pack.json with its sources and matchers converted from the registries' valibot shapes: the rest of the
 * format (pack, check, scope, remedy) is kept as written. Used by `npm run schema` and by the unit test that checks it.
 */
import * as v from 'valibot';
import { toJsonSchema, type JsonSchema } from '@valibot/to-json-schema';
import { numberShape } from '../src/packs/load/forms.ts';
import { CLUSTER_SOURCES, sourceRef } from '../src/packs/load/source.ts';
import { MATCHER_KINDS, matcherKind } from '../src/packs/matchers/registry.ts';

type Schema = { $defs: Record<string, JsonSchema> & { check: { properties: Record<string, JsonSchema> } } };

/** One shape as JSON Schema, the shared ones (`source`, `number`) by reference. */
function convert(shape: v.GenericSchema, definitions: Record<string, v.GenericSchema>): JsonSchema {
  const {
    $schema: _s,
    $defs: _d,
    ...rest
  } = toJsonSchema(shape, {
    target: 'draft-2020-12',
    definitions,
    errorMode: 'throw',
  }) as JsonSchema & { $schema?: string; $defs?: unknown };
  return rest;
}

/** The text of schema/pack.json as it must be, from its current text. */
export function packSchema(current: string): string {
  const schema = JSON.parse(current) as Schema;
  const matchers = v.strictObject(Object.fromEntries(MATCHER_KINDS.map((k) => [k, v.optional(matcherKind(k).shape)])));
  schema.$defs.source = convert(sourceRef, { number: numberShape });
  schema.$defs.matchers = { ...convert(matchers, { source: sourceRef, number: numberShape }), minProperties: 1 };
  schema.$defs.number = convert(numberShape, {});
  schema.$defs.check.properties.each = {
    enum: ['node', 'cluster'],
    description: `default: cluster for ${CLUSTER_SOURCES.join(' and ')}, node otherwise`,
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}
