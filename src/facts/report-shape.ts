/**
 * schema/report.json as a valibot schema: what a report read back (a kept report, diff's files, a plan) must be
 * before anything renders or compares it. Statuses and check ids come from the model's lists, so a new status or
 * check is one line there. Actions are checked for type and status here; a plan's actions field by field in
 * fix/plan-shape.ts.
 */
import * as v from 'valibot';
import { ACTION_STATUSES, CHECK_IDS, CHECK_STATUSES, SEVERITIES } from '../model/index.ts';

const str = v.string();
const strs = v.array(str);
const orNull = <S extends v.GenericSchema>(s: S) => v.nullable(s);
const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Obj = v.record(str, v.unknown());
const CheckId = v.union([
  v.picklist(CHECK_IDS),
  v.pipe(str, v.regex(/^[a-z0-9][a-z0-9-]{0,62}\/[a-z0-9][a-z0-9-]{0,62}$/)),
]);
const Status = v.picklist(CHECK_STATUSES);

const Finding = v.strictObject({
  host: v.optional(str),
  message: str,
  kind: v.optional(v.picklist(['problem', 'restart-pending', 'unverified', 'note'])),
  evidence: v.optional(Obj),
});

const Folder = v.strictObject({ path: str, why: str });

const Action = v.looseObject({ type: str, status: v.picklist(ACTION_STATUSES) });

const Check = v.strictObject({
  id: CheckId,
  order: v.pipe(v.number(), v.integer(), v.minValue(1)),
  status: Status,
  severity: v.optional(v.picklist(SEVERITIES)),
  title: v.optional(str),
  why: v.optional(str),
  docs: v.optional(str),
  waiver: v.optional(v.strictObject({ reason: str, expires: v.optional(v.pipe(str, v.regex(/^\d{4}-\d{2}-\d{2}$/))) })),
  reason: str,
  findings: v.array(Finding),
  actions: v.array(Action),
});

const Pins = v.strictObject({
  nodes: v.array(v.strictObject({ name: str, ip: str, roles: strs })),
  elected_manager: orNull(str),
  cluster_settings: orNull(v.strictObject({ persistent: Obj, transient: Obj })),
  index_settings: orNull(Obj),
});

const Topology = v.strictObject({
  nodes: v.array(
    v.strictObject({
      name: str,
      host: orNull(str),
      address: str,
      roles: strs,
      master: v.boolean(),
      elected: v.boolean(),
      reachable: v.boolean(),
      node_with_sme: orNull(v.boolean()),
      plugins: orNull(strs),
      keystore_entry: orNull(v.boolean()),
      limits_copies: strs,
    }),
  ),
  web: v.array(
    v.strictObject({
      host: str,
      reachable: v.boolean(),
      points_at: orNull(v.array(v.strictObject({ url: str, node: orNull(str) }))),
    }),
  ),
});

const Cluster = v.strictObject({
  api_url: str,
  name: str,
  nodes: v.array(
    v.strictObject({
      host: orNull(str),
      address: str,
      name: orNull(str),
      roles: strs,
      reachable: v.boolean(),
      layout: v.optional(
        v.strictObject({
          engine_config: Folder,
          engine_home: Folder,
          web_config: Folder,
          web_home: Folder,
          refused: v.optional(strs),
        }),
      ),
    }),
  ),
  checks: v.array(Check),
  notes: v.array(Finding),
  actions: v.optional(v.array(Action)),
  pins: v.optional(Pins),
  refused: v.optional(strs),
  after: v.optional(v.strictObject({ checks: v.array(v.strictObject({ id: CheckId, status: Status, reason: str })) })),
  topology: v.optional(Topology),
});

/** A report of audit or fix. schema_version is any whole number here: diff says when two reports' shapes differ. */
export const ReportShape = v.strictObject({
  schema_version: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  generated_at: v.optional(v.pipe(str, v.regex(/^\d{4}-\d{2}-\d{2}T/))),
  tool: v.literal('smdoctor'),
  version: str,
  mode: v.picklist(['audit', 'fix']),
  clusters: v.array(Cluster),
  summary: v.strictObject({ clusters: count, hosts: count, unreachable: count, checks_failed: count }),
  fix: v.optional(v.strictObject({ done: count, failed: count, skipped: count, interrupted: v.boolean() })),
  shard: v.optional(v.strictObject({ index: count, count: v.pipe(count, v.minValue(1)), positions: v.array(count) })),
});
