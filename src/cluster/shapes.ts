/** What the REST API must answer, checked at the edge: a wrong type becomes a reason naming the endpoint and field, never a TypeError. */
import * as v from 'valibot';
import { ApiError } from '../base/errors.ts';
import { issueText } from '../base/valibot-issue.ts';

// valibot's object and record schemas take an array too (an array is an object): an answer's object is never one
const notArray = <S extends v.GenericSchema>(schema: S) =>
  v.pipe(
    v.unknown(),
    v.check((x) => !Array.isArray(x)),
    schema,
  );
/** An object of an answer: the named entries checked, others kept. */
export const answerObject = <E extends v.ObjectEntries>(entries: E) => notArray(v.looseObject(entries));

/** `_cat` rows with format=json: every value a string or null. */
export const CatRows = v.array(notArray(v.record(v.string(), v.nullable(v.string()))));

const Obj = notArray(v.record(v.string(), v.unknown()));

const count = v.optional(v.number());

/** GET _cluster/health (a 408 of a wait not met carries the same body). */
export const HealthAnswer = answerObject({
  cluster_name: v.optional(v.string()),
  status: v.optional(v.string()),
  number_of_nodes: count,
  number_of_data_nodes: count,
  active_shards: count,
  relocating_shards: count,
  initializing_shards: count,
  unassigned_shards: count,
  delayed_unassigned_shards: count,
});

/** GET _cluster/settings: each layer an object (flat_settings keys, or nested). */
export const ClusterSettings = answerObject({
  persistent: v.optional(Obj),
  transient: v.optional(Obj),
  defaults: v.optional(Obj),
});

/** A settings or index change's answer. */
export const Acknowledged = answerObject({ acknowledged: v.optional(v.boolean()) });

/** A document write's answer: its new version. */
export const Written = answerObject({
  result: v.optional(v.string()),
  _seq_no: v.optional(v.number()),
  _primary_term: v.optional(v.number()),
});

/** GET /: the release, when the user may read it. */
export const RootAnswer = v.nullish(
  answerObject({
    version: v.optional(answerObject({ number: v.optional(v.string()), distribution: v.optional(v.string()) })),
  }),
);

/** GET _nodes/stats/fs: per node id, its name and data path totals. */
export const NodesFs = answerObject({
  nodes: v.optional(
    v.record(
      v.string(),
      answerObject({
        name: v.optional(v.string()),
        fs: v.optional(
          answerObject({
            total: v.optional(answerObject({ total_in_bytes: count, available_in_bytes: count })),
          }),
        ),
      }),
    ),
  ),
});

/** GET <index>/_doc/<id> when found. */
export const DocAnswer = answerObject({
  _source: v.optional(Obj),
  _seq_no: v.optional(v.number()),
  _primary_term: v.optional(v.number()),
});

/** GET <index>/_settings: per index, its settings object. */
export const SettingsAnswer = notArray(v.record(v.string(), answerObject({ settings: v.optional(Obj) })));

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

const ErrorAnswer = v.looseObject({
  error: v.optional(
    v.union([v.string(), v.looseObject({ type: v.optional(v.unknown()), reason: v.optional(v.unknown()) })]),
  ),
});

/** An error answer's `error` (a string, or its type and reason when they are strings); never throws: any body may come with an error status. */
export function errorOf(body: unknown): string | { type?: string; reason?: string } | undefined {
  const r = v.safeParse(ErrorAnswer, body);
  const e = r.success ? r.output.error : undefined;
  if (e === undefined || typeof e === 'string') return e;
  return {
    ...(typeof e.type === 'string' ? { type: e.type } : {}),
    ...(typeof e.reason === 'string' ? { reason: e.reason } : {}),
  };
}
