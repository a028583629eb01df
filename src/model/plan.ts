/**
 * The plan: what fix will do, one action per kind with exactly its fields. Plain JSON, the report carries it. Each
 * kind is declared once, as a valibot shape: its type here, schema/report.json (`npm run schema`) and the plan
 * reader (fix/plan-shape.ts) all come from it.
 */
import * as v from 'valibot';

export const ACTION_STATUSES = ['planned', 'done', 'failed', 'skipped'] as const;
export type ActionStatus = (typeof ACTION_STATUSES)[number];

/** The engine's setting that belongs to the plan: rolling restarts hold it at `primaries` and put it back. */
export const ALLOCATION_KEY = 'cluster.routing.allocation.enable';

const str = v.string();
const about = <S extends v.GenericSchema>(s: S, text: string) => v.pipe(s, v.description(text));
/** An object of any fields (a settings body, a document). */
export const AnyObject = v.record(str, v.unknown());

/** What every action carries: its status and, after fix, what became of it. */
const BASE = {
  status: about(v.picklist(ACTION_STATUSES), 'planned in an audit; what became of it in a fix'),
  error: v.optional(about(str, 'fix: why the step failed (secrets redacted)')),
  backup: v.optional(about(str, 'fix: local path of the saved old content of an edited file')),
  reason: v.optional(about(str, 'fix: why the step was skipped, or what it found')),
  output: v.optional(about(str, 'fix: what the step showed (verify-shards: the shard table)')),
};
const kind = <T extends string, E extends v.ObjectEntries>(type: T, description: string, entries: E) =>
  about(v.strictObject({ type: v.literal(type), ...entries, ...BASE }), description);

const apiPath = about(str, 'the REST path');
const command = about(str, 'the exact remote command');
/** A comment-keeping edit of one YAML key; fix re-checks the file's hash and the diff before writing. */
const EDIT = {
  host: about(str, 'inventory host name'),
  path: about(str, 'the file on the host'),
  key: about(str, 'the YAML key set'),
  diff: about(str, 'unified diff of exactly what fix writes'),
  base_sha256: v.optional(
    about(
      v.pipe(str, v.regex(/^[0-9a-f]{64}$/)),
      'sha256 of the file the diff was computed against; fix refuses a file that changed',
    ),
  ),
};
const integer = v.pipe(v.number(), v.integer());

/** Each action kind, by its `type`. */
export const ACTION_SHAPES = {
  /** `op_type=create` when the document was absent, else optimistic concurrency on the version read. */
  'put-document': kind('put-document', 'Write the base limit document', {
    method: v.literal('PUT'),
    api_path: apiPath,
    body: about(v.unknown(), 'the document'),
    op_type: v.optional(
      about(v.literal('create'), 'the document was absent: create it, never overwrite one that appeared since'),
    ),
    if_seq_no: v.optional(integer),
    if_primary_term: v.optional(integer),
  }),
  'set-yaml': kind('set-yaml', 'Set one key of a YAML config file, comments kept', {
    ...EDIT,
    value: v.union([str, v.number(), v.boolean()]),
  }),
  'set-hosts': kind('set-hosts', 'Set the engine hosts list of the dashboards config, comments kept', {
    ...EDIT,
    value: v.array(str),
  }),
  'remove-plugin': kind('remove-plugin', 'Remove a plugin from a master node', {
    host: str,
    value: about(str, 'the plugin name'),
    command,
  }),
  'remove-keystore-entry': kind('remove-keystore-entry', 'Remove a keystore entry', {
    host: str,
    key: about(str, 'the keystore entry'),
    command,
    if_present: v.optional(about(v.boolean(), 'the keystore was not listed: an absent entry counts as done')),
  }),
  'restart-service': kind('restart-service', 'Restart a service (engine nodes one at a time, as a rolling restart)', {
    host: str,
    service: about(str, '<engine> or <engine>-dashboards'),
    command,
  }),
  'put-settings': kind('put-settings', 'Change the limits index settings', {
    method: v.literal('PUT'),
    api_path: apiPath,
    body: AnyObject,
  }),
  'verify-shards': kind('verify-shards', 'Wait until every data node holds a started copy of the limits index', {
    method: v.literal('GET'),
    api_path: apiPath,
  }),
  'reset-allocation': kind(
    'reset-allocation',
    `Reset ${ALLOCATION_KEY} to unset in both layers (done first in its cluster)`,
    { method: v.literal('PUT'), api_path: apiPath, body: AnyObject },
  ),
};

/** One planned step, whichever its type. */
export const ActionShape = about(v.variant('type', Object.values(ACTION_SHAPES)), 'one planned step, by type');

type Shapes = typeof ACTION_SHAPES;
type Kinds = { [K in keyof Shapes]: v.InferOutput<Shapes[K]> }[keyof Shapes];
type KeysOf<T> = T extends unknown ? keyof T : never;
/** A kind with the other kinds' fields absent: code that handles any action may read `a.host`, none may set it where it does not belong. */
type Only<T> = T extends unknown ? T & { [K in Exclude<KeysOf<Kinds>, keyof T>]?: undefined } : never;

/** One planned step; `type` says which fields it has. */
export type Action = Only<Kinds>;
export type ActionType = keyof Shapes;
/** The action of one kind. */
export type ActionOf<K extends ActionType> = Extract<Action, { type: K }>;
