/** Facts gathered per cluster, and what the checks make of them. Plain data: serialisable, no sockets. */
import type { HostConfig } from '../inventory/types.ts';

export const CHECK_IDS = [
  'base-limit-document',
  'master-node-with-sme',
  'dashboards-hosts',
  'master-plugins',
  'limits-index-replicas',
] as const;
export type CheckId = (typeof CHECK_IDS)[number];

/** The system index of the base limit document (seed §2.1, §2.2). */
export const LIMITS_INDEX = '.sm_sme_limits_user';

/** A file read from a host, with the path it was read from. */
export interface RemoteFile {
  path: string;
  text: string;
  /** The file is not UTF-8: text holds one char per byte, and edits are written back that way. */
  encoding?: 'latin1';
  /** Why this file cannot be edited safely (its encoding): a finding, never an edit. */
  refused?: string;
}

export interface PluginOnDisk {
  /** Folder under plugins/. */
  folder: string;
  /** `name` of plugin-descriptor.properties (the folder when absent). */
  name: string;
  version?: string;
  /** Why smdoctor will not act on this folder (its name could be misread by a shell or a tool): a finding for a person. */
  refused?: string;
}

export interface HostFacts {
  host: string;
  config: HostConfig;
  reachable: boolean;
  /** Why it was not reachable, or what failed while reading it. */
  error?: string;
  /** `{search_home}/config/<engine>.yml`; null when absent on the host. */
  engineYml: RemoteFile | null;
  /** `{web_home}/config/<engine>_dashboards.yml`; null when absent. */
  dashboardsYml: RemoteFile | null;
  /** Plugins found under `{search_home}/plugins/`. */
  plugins: PluginOnDisk[];
  /** Output of `<engine>-keystore list`, or null when it was not asked (only asked where it matters). */
  keystore: string[] | null;
  /** In a `dashboards` group, or the dashboards config exists. */
  isWeb: boolean;
}

/** `_cat` rows exactly as the API returns them with format=json: all values strings or null. */
export type CatRow = Record<string, string | null>;

export interface ApiAnswer<T = unknown> {
  statusCode: number;
  body: T;
}

export interface ApiFacts {
  reachable: boolean;
  error?: string;
  clusterName?: string;
  health?: ApiAnswer;
  nodes: CatRow[];
  nodeattrs: CatRow[];
  plugins: CatRow[];
  /** GET /_core/limits_user/base_limit */
  baseLimitEndpoint?: ApiAnswer;
  /** GET /.sm_sme_limits_user/_doc/base_limit */
  baseLimitDoc?: ApiAnswer;
  /** GET /.sm_sme_limits_user/_settings */
  limitsSettings?: ApiAnswer;
  /** GET /_cat/shards/.sm_sme_limits_user?format=json */
  limitsShards: CatRow[];
  /** GET /_cluster/settings?flat_settings=true */
  clusterSettings?: ApiAnswer;
}

/** A cluster node as running, matched to an inventory host when one matches by address or name. */
export interface NodeView {
  name: string;
  ip: string;
  /** Running roles from `_cat/nodes` node.roles. */
  roles: string[];
  isMaster: boolean;
  /** Inventory host name, when matched. */
  host?: string;
}

export interface ClusterFacts {
  apiUrl: string;
  name: string;
  hosts: HostFacts[];
  api: ApiFacts;
  nodes: NodeView[];
}

export type ActionType =
  | 'put-document'
  | 'set-yaml'
  | 'set-hosts'
  | 'remove-plugin'
  | 'remove-keystore-entry'
  | 'restart-service'
  | 'put-settings'
  | 'verify-shards'
  /** `cluster.routing.allocation.enable` back to unset, persistent and transient (fix does it first in its cluster). */
  | 'reset-allocation';

export type ActionStatus = 'planned' | 'done' | 'failed' | 'skipped';

export interface Action {
  type: ActionType;
  /** Inventory host name; absent for REST actions. */
  host?: string;
  /** File edits. */
  path?: string;
  key?: string;
  value?: unknown;
  /** Unified diff of exactly what fix will write. */
  diff?: string;
  /** Remote commands: the exact text. */
  command?: string;
  /** restart-service: `<engine>` or `<engine>-dashboards`. */
  service?: string;
  /** REST actions. */
  method?: 'GET' | 'PUT' | 'POST';
  api_path?: string;
  body?: unknown;
  status: ActionStatus;
  error?: string;
  /** The thing to remove may already be gone (keystore not listed): fix treats "does not exist" as done. */
  if_present?: boolean;
  /** put-document: the document was absent at audit time, so fix creates it and never overwrites one that appeared since. */
  op_type?: 'create';
  /** put-document: optimistic concurrency on the document the audit read. */
  if_seq_no?: number;
  if_primary_term?: number;
  /** set-yaml/set-hosts: sha256 (hex) of the file content the diff was computed against. */
  base_sha256?: string;
  /** fix: local path of the saved old content of an edited file. */
  backup?: string;
  /** fix: why the action was skipped, or what it found. */
  reason?: string;
  /** fix: what the step showed (verify-shards: the `_cat/shards?v=true` table). */
  output?: string;
}

/** problem: the seed's condition holds · restart-pending: disk and running state differ · unverified: could not be read · note: context. */
export type FindingKind = 'problem' | 'restart-pending' | 'unverified' | 'note';

export interface Finding {
  host?: string;
  message: string;
  /** Absent means problem. */
  kind?: FindingKind;
  evidence?: Record<string, unknown>;
}

export type CheckStatus = 'pass' | 'fail' | 'error' | 'skip';

export interface CheckResult {
  id: CheckId;
  order: number;
  status: CheckStatus;
  /** One line: why it passed, failed, errored or was skipped. */
  reason: string;
  findings: Finding[];
  actions: Action[];
}

/** A check: states its seed row, reads gathered facts, returns findings and planned actions. Pure. */
export interface Check {
  id: CheckId;
  order: number;
  /** The seed §7.1 row it implements, quoted. */
  seedRow: string;
  run(facts: ClusterFacts): CheckResult;
}

export interface ClusterReport {
  api_url: string;
  name: string;
  nodes: Array<{ host: string | null; address: string; name: string | null; roles: string[]; reachable: boolean }>;
  /** Correlation: nodes missing from the inventory, hosts missing from the cluster, restart pending… */
  notes: Finding[];
  checks: CheckResult[];
  /** Actions of the cluster itself, not of a check (reset-allocation); fix runs them first. */
  actions?: Action[];
  /** What a reviewed plan pinned (fix --plan re-reads it before touching the cluster). */
  pins?: ClusterPins;
  /** fix: why nothing (more) was done in this cluster: the pre-flight, or every drift from the plan. */
  refused?: string[];
  /** fix: the checks as the audit after applying saw them. */
  after?: { checks: Array<{ id: CheckId; status: CheckStatus; reason: string }> };
}

/** Plain data: what the audit saw and a reviewed plan depends on. */
export interface ClusterPins {
  /** Running nodes, sorted by name, with roles and address. */
  nodes: Array<{ name: string; ip: string; roles: string[] }>;
  elected_manager: string | null;
  /** `_cluster/settings?flat_settings=true`, both layers. */
  cluster_settings: { persistent: Record<string, unknown>; transient: Record<string, unknown> } | null;
  /** The limits index's settings as read (flat), or null when absent. */
  index_settings: Record<string, unknown> | null;
}

export interface Report {
  /** Shape of this report: 2 from version 0.2 (pins, cluster actions). */
  schema_version?: number;
  /** When the audit ran (ISO 8601); a plan's age is measured from it. */
  generated_at?: string;
  tool: 'smdoctor';
  version: string;
  mode: 'audit' | 'fix';
  clusters: ClusterReport[];
  summary: { clusters: number; hosts: number; unreachable: number; checks_failed: number };
  /** fix: what applying did; absent when nothing was applied. */
  fix?: { done: number; failed: number; skipped: number; interrupted: boolean };
}

/** The vendor's plugins that must not run on a master, in removal order: extensions of sm-job-scheduler go before it
 * (the plugin tool refuses otherwise). Audit gathers keystores where they are; check 4 plans their removal. */
export const SM_PLUGINS = ['sm-job-scheduler-actions-incident', 'sm-job-scheduler-actions-mitre', 'sm-sigma', 'sm-job-scheduler'];
