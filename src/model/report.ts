/** What the checks make of the facts, and the report audit and fix print. Plain JSON. */
import type { CheckId } from './checks.ts';
import type { ClusterFacts } from './facts.ts';
import type { Severity } from './pack.ts';
import type { Action } from './plan.ts';

/** problem: the check's condition holds · restart-pending: disk and running state differ · unverified: could not be read · note: context. */
export type FindingKind = 'problem' | 'restart-pending' | 'unverified' | 'note';

export interface Finding {
  host?: string;
  message: string;
  /** Absent means problem. */
  kind?: FindingKind;
  evidence?: Record<string, unknown>;
}

/** Every status a check can have: the one list the report reader, the HTML classes and the schema's enum follow. */
export const CHECK_STATUSES = ['pass', 'fail', 'error', 'skip', 'waived'] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** Whether a value read from a file is a status smdoctor writes (anything else never becomes a class or a word). */
export const isCheckStatus = (s: unknown): s is CheckStatus => (CHECK_STATUSES as readonly unknown[]).includes(s);

/** A vendor check's id, or a pack check's full id `pack/id`. */
export type AnyCheckId = CheckId | `${string}/${string}`;

export interface CheckResult {
  id: AnyCheckId;
  /** Pack checks: after the vendor's five, in load order. */
  order: number;
  status: CheckStatus;
  /** Pack checks: what the pack says of the check. The vendor's five are `critical`. */
  severity?: Severity;
  title?: string;
  why?: string;
  docs?: string;
  /** The waiver that turned a failure into `waived`. */
  waiver?: { reason: string; expires?: string };
  /** One line: why it passed, failed, errored or was skipped. */
  reason: string;
  findings: Finding[];
  actions: Action[];
}

/** A check: states the troubleshooting row it implements, reads gathered facts, returns findings and planned actions. Pure. */
export interface Check {
  id: CheckId;
  /** checkOrder(id): its place in the vendor's troubleshooting order. */
  order: number;
  /** The row of the vendor's troubleshooting table it implements, quoted: `| n | where | condition | fix |`. */
  troubleshootingRow: string;
  run(facts: ClusterFacts): CheckResult;
}

/** A folder of a node's layout and why it was used, as the report says it. */
export interface ReportFolder {
  path: string;
  why: string;
}

export interface ReportLayout {
  engine_config: ReportFolder;
  engine_home: ReportFolder;
  web_config: ReportFolder;
  web_home: ReportFolder;
  /** Values seen on the host and not used (`where: why`). */
  refused?: string[];
}

export interface ClusterReport {
  api_url: string;
  name: string;
  nodes: Array<{
    host: string | null;
    address: string;
    name: string | null;
    roles: string[];
    reachable: boolean;
    /** Where the host keeps the node's config and program, and why (absent when the host was not read). */
    layout?: ReportLayout;
  }>;
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
  after?: { checks: Array<{ id: AnyCheckId; status: CheckStatus; reason: string }> };
  /** What the checks looked at, node by node: for pictures of the cluster (HTML). Absent in reports before 0.3. */
  topology?: ClusterTopology;
}

/** One running node (or inventory host) and what the five checks read there; null: not read. */
export interface TopologyNode {
  name: string;
  host: string | null;
  address: string;
  roles: string[];
  master: boolean;
  elected: boolean;
  reachable: boolean;
  node_with_sme: boolean | null;
  /** The vendor's sm-* plugins on disk. */
  plugins: string[] | null;
  /** The keystore holds the job scheduler's mail password entry. */
  keystore_entry: boolean | null;
  /** Copies of the limits index here, as `0p STARTED`. */
  limits_copies: string[];
}

/** A web-application host and the nodes its `<engine>.hosts` points at (node names; the URL when none matches). */
export interface TopologyWeb {
  host: string;
  reachable: boolean;
  points_at: Array<{ url: string; node: string | null }> | null;
}

export interface ClusterTopology {
  nodes: TopologyNode[];
  web: TopologyWeb[];
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
  /** audit --shard K/N: this shard, and each cluster's place among all the inventory's (`merge` orders by it). */
  shard?: ReportShard;
}

export interface ReportShard {
  /** K, from 0. */
  index: number;
  /** N. */
  count: number;
  /** positions[i]: where clusters[i] stands among all the inventory's clusters, from 0. */
  positions: number[];
}
