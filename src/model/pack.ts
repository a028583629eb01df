/** A check pack (format 1) as loaded and checked: plain data, no code. The loader (packs/) makes it from YAML;
 * the evaluator judges it over gathered facts. Shared here so both sides agree on one shape. */

/** A pack's name, or a check's id inside its pack: the one pattern every reader of `pack/id` builds on. */
const PACK_NAME = '[a-z0-9][a-z0-9-]{0,62}';
export const PACK_NAME_RE = new RegExp(`^${PACK_NAME}$`);
/** A pack check's full id, `pack/id`. */
export const PACK_CHECK_ID_RE = new RegExp(`^${PACK_NAME}/${PACK_NAME}$`);
/** Any check's id as a waiver names it: a vendor check's (of the name's form) or a pack check's. */
export const ANY_CHECK_ID_RE = new RegExp(`^${PACK_NAME}(/${PACK_NAME})?$`);

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** `critical` ranks 0: lower ranks are more severe. */
export const severityRank = (s: Severity): number => SEVERITIES.indexOf(s);

/** One read-only source (`read:` or a `same_as:` operand); `field` picks one field of an object value. */
export type PackSource = (
  | { kind: 'setting'; key: string }
  | { kind: 'dashboards_setting'; key: string }
  | { kind: 'jvm_option'; option: string }
  | { kind: 'file'; path: string; match: string }
  | { kind: 'plugins' }
  | { kind: 'keystore' }
  | { kind: 'certificate'; setting: string }
  | { kind: 'sysctl'; name: string }
  | { kind: 'memory' }
  | {
      kind: 'engine_process';
      limit:
        | 'max_locked_memory'
        | 'max_open_files'
        | 'max_processes'
        | 'max_file_size'
        | 'max_address_space'
        | 'max_size_virtual_memory'
        | 'jvm_version'
        | 'started_at';
    }
  /** `allowEmpty`: `*` over an empty list is `[]`, not an error; `eachNode`: a node-keyed answer, one value per node. */
  | { kind: 'api'; path: string; pick: string; allowEmpty?: true; eachNode?: true }
  // Extensions of the fleet pack (docs/fleet-pack.md), all read-only:
  /** Every certificate the security plugin's `*.pemcert_filepath` settings name: a list of certificate objects. */
  | { kind: 'certificates' }
  /** Every flattened key the node's `<engine>.yml` sets, names only. */
  | { kind: 'setting_keys' }
  /** The node's running engine version, from the cluster's `_nodes`. */
  | { kind: 'engine_version' }
  /** The node's data path from `_nodes/stats/fs`: `{total_bytes, available_bytes, used_percent}`. */
  | { kind: 'disk' }
  /** Open shards ÷ (`cluster.max_shards_per_node` × data nodes), a fraction (`each: cluster`). */
  | { kind: 'shard_usage' }
  /** Modification time (epoch seconds) of a file under search_home. */
  | { kind: 'file_modified'; path: string }
  // Host sources (0.5), gathered in the same batched command:
  /** Metadata of an absolute path, never its content; the link itself unless `follow`. */
  | { kind: 'path'; path: string; follow?: true }
  /** A systemd unit: `{active, enabled, user, limit_nofile, limit_memlock, limit_nproc}`. */
  | { kind: 'service'; unit: string }
  /** The installed version of a package (dpkg or rpm). */
  | { kind: 'package'; name: string }
  /** A TCP socket listening on that port (and address, or every address). */
  | { kind: 'listening'; port: number; address?: string }
  | { kind: 'user'; name: string }
  | { kind: 'group'; name: string }
  /** The file system holding an absolute path: `{source, type, options}`. */
  | { kind: 'mount'; path: string }
) & { field?: string };

export type PackSourceKind = PackSource['kind'];

/** A plain YAML value a matcher compares with. */
export type PackValue = string | number | boolean | null;

/** One matcher of `expect:`; every one given must hold. Sizes and durations are already numbers (bytes, days).
 * A scalar matcher on a list value (`certificates`, an `api` pick with `*`) holds when it holds for every element. */
export type PackMatcher =
  | { kind: 'equals'; value: PackValue }
  | { kind: 'not_equals'; value: PackValue }
  | { kind: 'one_of'; values: PackValue[] }
  | { kind: 'not_one_of'; values: PackValue[] }
  | { kind: 'present'; value: boolean }
  | { kind: 'matches'; regex: string }
  /** `size`: written with a byte unit (`31g`): messages show sizes readably. */
  | { kind: 'at_least'; value: number; size?: true }
  | { kind: 'at_most'; value: number; size?: true }
  | { kind: 'at_most_of_memory'; fraction: number }
  | { kind: 'contains'; value: PackValue }
  | { kind: 'not_contains'; value: PackValue }
  | { kind: 'contains_none_of'; values: PackValue[] }
  | { kind: 'same_as'; source: PackSource }
  /** `except`: list items (by name) left out of the comparison. */
  | { kind: 'same_on_nodes'; except?: PackValue[] }
  | { kind: 'plugin_versions_match_engine' }
  // Extensions of the fleet pack (docs/fleet-pack.md):
  /** `discovery.seed_hosts` names every manager-eligible node of the cluster, and only nodes of it. */
  | { kind: 'seeds_are_cluster_managers' }
  /** A `disk` value below the cluster's effective `cluster.routing.allocation.disk.watermark.high`. */
  | { kind: 'below_high_watermark' }
  /** A number at most another source's number on the same node (a file older than the process start). */
  | { kind: 'not_newer_than'; source: PackSource }
  // Additions of 0.5:
  | { kind: 'not_matches'; regex: string }
  | { kind: 'contains_all'; values: PackValue[] }
  /** Items of a list or characters of a string, within the bounds given (at least one of them). */
  | { kind: 'length'; atLeast?: number; atMost?: number }
  /** An empty list or string (`true`), or not (`false`). */
  | { kind: 'empty'; value: boolean };

export type PackMatcherKind = PackMatcher['kind'];

export type PackRemedy =
  | { kind: 'set_setting'; key: string; value: string | number | boolean }
  | { kind: 'set_dashboards_setting'; key: string; value: string | number | boolean }
  | { kind: 'remove_plugin'; name: string }
  | { kind: 'put_cluster_setting'; key: string; value: PackValue }
  | { kind: 'put_index_setting'; index: string; key: string; value: PackValue };

export interface PackScope {
  roles?: string[];
  groups?: string[];
  /** A semver range over the cluster's engine version, as written. */
  engine?: string;
}

export interface PackCheck {
  /** `pack/id`. */
  fullId: string;
  id: string;
  title: string;
  severity: Severity;
  why: string;
  docs?: string;
  scope?: PackScope;
  each: 'node' | 'cluster';
  read: PackSource;
  expect: PackMatcher[];
  /** Judge only the nodes where this source meets these matchers (fleet pack extension). */
  when?: { read: PackSource; expect: PackMatcher[] };
  remedy?: PackRemedy;
}

export interface Pack {
  name: string;
  description?: string;
  /** Where it was loaded from: a path, or `builtin:NAME`. */
  origin: string;
  checks: PackCheck[];
}

export interface Waiver {
  /** A pack check's full id or a vendor check id. */
  check: string;
  hosts?: string[];
  /** By name or api_url. */
  clusters?: string[];
  reason: string;
  /** YYYY-MM-DD; after that day (UTC) the waiver is ignored and the report says so. */
  expires?: string;
  /** Where it was written: `file:line`. */
  at: string;
}
