/**
 * The lab's running state, shared by the node lifecycle (nodes.ts, daemon.ts) and
 * the emulated REST API (api/). Node state is what each node loaded from its files
 * at its last start; index state lives in the store.
 */

export interface PluginInfo {
  /** `name` from plugin-descriptor.properties. */
  name: string;
  version: string;
  /** `<engine>.version`: the engine release the plugin was built for. */
  engineVersion?: string;
}

export interface NodeRuntime {
  /** node.name */
  name: string;
  /** The node's own loopback address. */
  ip: string;
  /** Sorted role names as loaded (`cluster_manager`, `data`, `ingest`, `remote_cluster_client`, `search`, legacy `master`…). */
  roles: string[];
  /** node.attr.* as loaded, values as strings. */
  attrs: Record<string, string>;
  plugins: PluginInfo[];
  /** The engine release this node runs (from its installed `lib/<engine>-<version>.jar`); the cluster's when absent. */
  version?: string;
  /** The data path's filesystem, bytes. */
  disk?: { total: number; available: number };
  /** 'up' serves the API; 'restarting' is out of the cluster for a moment; 'down' refused to start (see reason). */
  state: 'up' | 'restarting' | 'down';
  reason?: string;
}

/** What the REST API needs to know about the cluster, read-only plus the index store. */
export interface ClusterView {
  clusterName: string;
  /** The OpenSearch release the cluster answers as (`1.3.19`, `2.11.1`, `3.1.0`); the lab's default when absent. */
  version?: string;
  /** `read`: the API user can read but not write (every write is a 403 security_exception). */
  apiAccess?: 'read' | 'all';
  /** Every configured node, whatever its state. */
  nodes(): NodeRuntime[];
  /** Name of the elected cluster manager among nodes that are up, or null. */
  electedManager(): string | null;
  /** The index store (documents, settings, mappings, shard placement). */
  store: IndexStoreLike;
}

/** Minimal surface of the index store that the node lifecycle needs; the API module owns the full store. */
export interface IndexStoreLike {
  /** Called whenever the set of up data nodes changes, so shard copies are re-placed (auto-expand). */
  reallocate(dataNodes: string[]): void;
}

/** Scenario YAML (see scenarios/*.yml). */
export interface ScenarioNode {
  name: string;
  roles: string[];
  attrs?: Record<string, string | boolean | number>;
  plugins?: string[];
  keystore?: string[];
  /** How <engine>.yml is written: dotted keys (`node.attr.x: true`) or nested maps (`node:\n  attr:`). */
  yml_style?: 'flat' | 'nested';
  /** Raw text appended to <engine>.yml as written (odd formatting, comments, deliberate mistakes). */
  yml_extra?: string;
  /** Also a web-application host with this `<engine>.hosts` value (string or list). */
  dashboards_hosts?: string | string[];
  /**
   * The environment the node's engine runs with (what systemd's EnvironmentFile would give it): `${VAR}` in its
   * config resolve from it, and a stand-in process with the engine's command line carries it, so the host's
   * /proc/<pid>/environ shows it. Absent: no such process, and the node's environment cannot be read.
   */
  env?: Record<string, string>;
  /** The engine release installed on this node (mixed versions: an upgrade left half-done); the cluster's by default. */
  version?: string;
  /** Days left on the node's transport and HTTP certificates (default 365); `demo`: the published demo certificates. */
  certificate_days?: number;
  demo_certificates?: boolean;
  /** Roles written as the legacy `node.master`/`node.data`/`node.ingest` settings instead of `node.roles`. */
  legacy_roles?: boolean;
  /** `discovery.seed_hosts` (default: the cluster's manager-eligible nodes' addresses). */
  seed_hosts?: string[];
  /** The data path's filesystem: size (default `100g`) and percent used (default 40). */
  disk_total?: string;
  disk_used_percent?: number;
  /** Changes made on disk after the node started, which only its next start loads. */
  after_start?: { keystore_changed?: boolean; plugin_engine_version?: string };
  /** `config/jvm.options` as written (the lab's default heap of 1g when absent). */
  jvm_options?: string;
  /** `config/jvm.options.d/NAME` files, by name. */
  jvm_options_d?: Record<string, string>;
  /**
   * `layout: packages` only: who tells smdoctor where the node's folders are. `process` (the default): nothing in
   * the inventory, the engine's process environment (OPENSEARCH_PATH_CONF) and command line; `inventory`: the
   * inventory's engine_home, engine_config_dir and web_config_dir, and a process that names no config folder.
   */
  told_by?: 'process' | 'inventory';
  /** The emulated /proc of the node (inventory `proc_root`): total memory, sysctls, the engine process's limits. */
  proc?: { mem_total_kb?: number; sysctls?: Record<string, string | number>; limits?: Record<string, string | number> };
}

export interface ScenarioIndex {
  name: string;
  settings?: Record<string, unknown>;
  mappings?: Record<string, unknown>;
  /** Documents by _id. */
  docs?: Record<string, Record<string, unknown>>;
  /** Aliases that point to this index (`GET /<alias>/_settings` answers under the index's own name). */
  aliases?: string[];
}

export interface Scenario {
  name: string;
  description?: string;
  cluster_name?: string;
  engine?: string;
  /** The OpenSearch release to answer as: a 1.3, 2.x or 3.x version number. */
  version?: string;
  /** What the API user may do: `all` (the default) or `read` (reads pass, writes are refused with a 403). */
  api_access?: 'read' | 'all';
  /**
   * How hosts are laid out: `archive` (the default: everything under `{search_home}`, config in its `config/`), or
   * `packages` (as deb and rpm install: config in an `etc/<engine>` folder outside the program's `usr/share/<engine>`,
   * the engine and web processes started with OPENSEARCH_PATH_CONF and OSD_PATH_CONF in their environment).
   */
  layout?: 'archive' | 'packages';
  nodes: ScenarioNode[];
  /** Persistent cluster settings the cluster starts with (flat keys, string values, as `_cluster/settings` keeps them). */
  cluster_settings?: Record<string, string>;
  /** Web-application hosts that are not engine nodes; a `hosts` entry is a node name (→ https://<ip>:9200) or a URL. */
  dashboards?: Array<{ name: string; hosts: string | string[] }>;
  indices: ScenarioIndex[];
  /** Several clusters (fleet): each its own scenario. */
  clusters?: Scenario[];
}
