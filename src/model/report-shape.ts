/**
 * The report audit and fix print (`--format json`), declared once as valibot shapes: the types here, the published
 * schema/report.json (`npm run schema` converts `reportShape`) and the reader of a report read back from a file
 * (`ReportShape`) all come from them.
 */
import * as v from 'valibot';
import { ActionShape, AnyObject, type Action } from './plan.ts';
import { CheckIdShape, CheckResultShape, FindingShape, StatusShape, type CheckResult } from './report.ts';

const str = v.string();
const strs = v.array(str);
const about = <S extends v.GenericSchema>(s: S, text: string) => v.pipe(s, v.description(text));
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const FolderShape = v.strictObject({
  path: str,
  why: about(
    str,
    "why this folder: the inventory, the running process's environment, an environment file, the packages' or the archive's layout",
  ),
});
export type ReportFolder = v.InferOutput<typeof FolderShape>;

const LayoutShape = v.strictObject({
  engine_config: FolderShape,
  engine_home: FolderShape,
  web_config: FolderShape,
  web_home: FolderShape,
  refused: v.optional(about(strs, 'values seen on the host and not used (where: why)')),
});
export type ReportLayout = v.InferOutput<typeof LayoutShape>;

export const PinsShape = about(
  v.strictObject({
    /** Running nodes, sorted by name, with roles and address. */
    nodes: v.array(v.strictObject({ name: str, ip: str, roles: strs })),
    elected_manager: v.nullable(str),
    /** `_cluster/settings?flat_settings=true`, both layers. */
    cluster_settings: v.nullable(v.strictObject({ persistent: AnyObject, transient: AnyObject })),
    /** The limits index's settings as read (flat), or null when absent. */
    index_settings: v.nullable(AnyObject),
  }),
  'what a reviewed plan depends on; fix --plan re-reads it first',
);
export type ClusterPins = v.InferOutput<typeof PinsShape>;

/** One running node (or inventory host) and what the five checks read there; null: not read. */
const TopologyNodeShape = v.strictObject({
  name: str,
  host: v.nullable(str),
  address: str,
  roles: strs,
  master: v.boolean(),
  elected: v.boolean(),
  reachable: v.boolean(),
  node_with_sme: v.nullable(v.boolean()),
  /** The vendor's sm-* plugins on disk. */
  plugins: v.nullable(strs),
  /** The keystore holds the job scheduler's mail password entry. */
  keystore_entry: v.nullable(v.boolean()),
  /** Copies of the limits index here, as `0p STARTED`. */
  limits_copies: strs,
});
export type TopologyNode = v.InferOutput<typeof TopologyNodeShape>;

/** A web-application host and the nodes its `<engine>.hosts` points at (node names; the URL when none matches). */
const TopologyWebShape = v.strictObject({
  host: str,
  reachable: v.boolean(),
  points_at: v.nullable(v.array(v.strictObject({ url: str, node: v.nullable(str) }))),
});
export type TopologyWeb = v.InferOutput<typeof TopologyWebShape>;

export const TopologyShape = about(
  v.strictObject({ nodes: v.array(TopologyNodeShape), web: v.array(TopologyWebShape) }),
  'what the checks looked at, node by node (pictures of the HTML report); absent before 0.3',
);
export type ClusterTopology = v.InferOutput<typeof TopologyShape>;

export const ClusterShape = v.strictObject({
  api_url: str,
  name: about(str, 'the cluster name, or the api_url when the API was not read'),
  nodes: v.array(
    v.strictObject({
      host: about(v.nullable(str), 'inventory host; null: not in the inventory'),
      address: str,
      name: about(v.nullable(str), 'node name; null: not a running node'),
      roles: strs,
      reachable: v.boolean(),
      layout: v.optional(
        about(
          LayoutShape,
          "where the host keeps the node's config and program, as found on it (absent when the host was not read)",
        ),
      ),
    }),
  ),
  checks: v.array(CheckResultShape),
  /** Correlation: nodes missing from the inventory, hosts missing from the cluster, restart pending… */
  notes: v.array(FindingShape),
  actions: v.optional(
    about(v.array(ActionShape), 'actions of the cluster itself (reset-allocation); fix runs them first'),
  ),
  pins: v.optional(PinsShape),
  refused: v.optional(about(strs, 'fix: why nothing (more) was done in this cluster')),
  after: v.optional(
    about(
      v.strictObject({ checks: v.array(v.strictObject({ id: CheckIdShape, status: StatusShape, reason: str })) }),
      'fix: the checks as the audit after applying saw them',
    ),
  ),
  topology: v.optional(TopologyShape),
});
type ClusterOut = v.InferOutput<typeof ClusterShape>;
/** One cluster of the report; its checks and actions typed as the plan's. */
export type ClusterReport = Omit<ClusterOut, 'checks' | 'actions'> & { checks: CheckResult[]; actions?: Action[] };

const SummaryShape = v.strictObject({ clusters: count, hosts: count, unreachable: count, checks_failed: count });
export type ReportSummary = v.InferOutput<typeof SummaryShape>;

const ShardShape = about(
  v.strictObject({
    index: about(count, 'K, from 0'),
    count: about(v.pipe(count, v.minValue(1)), 'N'),
    positions: about(
      v.array(count),
      "positions[i]: where clusters[i] stands among all the inventory's clusters, from 0",
    ),
  }),
  "audit --shard K/N: this shard, and each cluster's place among all the inventory's clusters (merge orders by it); absent otherwise",
);

/** A report whose schema_version is `version`: the published schema's is its one number, the reader's any. */
export const reportShape = <S extends v.GenericSchema<number>>(version: S) =>
  about(
    v.strictObject({
      schema_version: v.optional(version),
      generated_at: v.optional(about(v.pipe(str, v.regex(/^\d{4}-\d{2}-\d{2}T/)), 'when the audit ran (ISO 8601)')),
      tool: v.literal('smdoctor'),
      version: about(str, 'the smdoctor version that wrote the report'),
      mode: v.picklist(['audit', 'fix']),
      clusters: v.array(ClusterShape),
      summary: SummaryShape,
      shard: v.optional(ShardShape),
      fix: v.optional(
        about(
          v.strictObject({ done: count, failed: count, skipped: count, interrupted: v.boolean() }),
          'fix: what applying did; absent when nothing was applied',
        ),
      ),
    }),
    'The JSON report of smdoctor audit and fix (--format json). See docs/report-schema.md.',
  );

/** A report read back (a kept report, diff's files, a plan): schema_version is any whole number, diff says when two differ. */
export const ReportShape = reportShape(v.pipe(v.number(), v.integer(), v.minValue(1)));
type ReportOut = v.InferOutput<typeof ReportShape>;
export type Report = Omit<ReportOut, 'clusters'> & { clusters: ClusterReport[] };
