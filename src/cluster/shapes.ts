/** What the REST API must answer, checked at the edge: a wrong type becomes a reason naming the endpoint and field, never a TypeError. */
import * as v from 'valibot';
import { ApiError } from '../base/errors.ts';
import { issueText } from '../base/valibot-issue.ts';

/** `_cat` rows with format=json: every value a string or null. */
export const CatRows = v.array(v.record(v.string(), v.nullable(v.string())));

const Obj = v.record(v.string(), v.unknown());

/** GET _cluster/health. */
export const HealthAnswer = v.looseObject({
  cluster_name: v.optional(v.string()),
  status: v.optional(v.string()),
  number_of_nodes: v.optional(v.number()),
});

/** GET <index>/_doc/<id> when found. */
export const DocAnswer = v.looseObject({
  _source: v.optional(Obj),
  _seq_no: v.optional(v.number()),
  _primary_term: v.optional(v.number()),
});

/** GET <index>/_settings: per index, its settings object. */
export const SettingsAnswer = v.record(v.string(), v.looseObject({ settings: v.optional(Obj) }));

/** An API answer that does not have the shape smdoctor reads. */
export class ShapeError extends ApiError {}

/** The body as `schema` says, or a ShapeError: `GET /_cat/nodes: field [0].node.roles is number 5, expected string`. */
export function shaped<S extends v.GenericSchema>(schema: S, body: unknown, what: string): v.InferOutput<S> {
  const r = v.safeParse(schema, body);
  if (r.success) return r.output;
  throw new ShapeError(`${what} answered an unexpected shape: ${issueText(r.issues[0])}`);
}

/** One page of a search, scroll or point-in-time read. */
export const SearchPage = v.looseObject({
  _scroll_id: v.optional(v.string()),
  pit_id: v.optional(v.string()),
  hits: v.optional(
    v.looseObject({
      total: v.optional(v.union([v.number(), v.looseObject({ value: v.number(), relation: v.optional(v.string()) })])),
      hits: v.optional(
        v.array(
          v.looseObject({
            _index: v.optional(v.string()),
            _id: v.optional(v.string()),
            _seq_no: v.optional(v.number()),
            _primary_term: v.optional(v.number()),
            _source: v.optional(v.unknown()),
            sort: v.optional(v.array(v.unknown())),
          }),
        ),
      ),
    }),
  ),
});

/** GET <patterns>/_mapping[/field/…]: per index, an object. */
export const MappingsAnswer = v.record(v.string(), Obj);
