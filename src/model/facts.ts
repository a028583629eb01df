/** Facts gathered per cluster: plain data read from hosts and the REST API, serialisable, no sockets. */

/** The system index of the base limit document. */
export const LIMITS_INDEX = '.sm_sme_limits_user';

/** The vendor's plugins that must not run on a master, in removal order: extensions of sm-job-scheduler go before it
 * (the plugin tool refuses otherwise). Audit gathers keystores where they are; check 4 plans their removal. */
export const SM_PLUGINS = [
  'sm-job-scheduler-actions-incident',
  'sm-job-scheduler-actions-mitre',
  'sm-sigma',
  'sm-job-scheduler',
];

/** The dashboards' `<engine>.hosts` when their config sets none (the web application's own default). */
export const DEFAULT_ENGINE_HOSTS: readonly string[] = ['http://localhost:9200'];

/** What the checks read of a host's settings; the inventory's resolved host settings satisfy it. */
export interface HostSettings {
  name: string;
  address: string;
  user: string;
  /** Privileged commands run with `sudo -n`. */
  become: boolean;
  /** `opensearch` or `elasticsearch`: names the config files, tools and services. */
  engine: string;
  searchHome: string;
  webHome: string;
  /** engine_home, engine_config_dir, web_config_dir: the node's folders as the inventory names them. */
  engineHome?: string;
  engineConfigDir?: string;
  webConfigDir?: string;
  engineUser: string;
  /** Template with {service}. */
  restartCommand: string;
  /** Every inventory group of the host (check packs' `scope.groups`). */
  groups?: string[];
}

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
  /** `opensearch.version` (or `elasticsearch.version`) of the descriptor: the engine release it was built for. */
  engineVersion?: string;
  /** Why smdoctor will not act on this folder (its name could be misread by a shell or a tool): a finding for a person. */
  refused?: string;
}

export interface HostFacts {
  host: string;
  config: HostSettings;
  reachable: boolean;
  /** Why it was not reachable, or what failed while reading it. */
  error?: string;
  /** `<engine>.yml` in the found config folder (layout.engineConfig); null when absent on the host. */
  engineYml: RemoteFile | null;
  /** `<engine>_dashboards.yml` in the found web config folder (layout.webConfig); null when absent. */
  dashboardsYml: RemoteFile | null;
  /** Plugins found under the found home's `plugins/`. */
  plugins: PluginOnDisk[];
  /** Output of `<engine>-keystore list`, or null when it was not asked (only asked where it matters). */
  keystore: string[] | null;
  /** In a `dashboards` group, or the dashboards config exists. */
  isWeb: boolean;
  /**
   * The running engine's environment (`/proc/<pid>/environ`), what `${VAR}` placeholders of its config resolve from;
   * null when it could not be read (no engine process found, not readable). Values of secret-named variables are
   * remembered as secrets, so a report blanks them wherever they would appear.
   */
  engineEnv: Record<string, string> | null;
  /** The running web application's environment, what `${VAR}` of its config resolve from; absent or null: not read. */
  webEnv?: Record<string, string> | null;
  /** What the loaded check packs asked the batched command to read here; absent when no pack is loaded. */
  packReads?: PackHostReads;
  /** Where the node keeps its config and program, as found on the host; absent when not read (unreachable). */
  layout?: NodeLayout;
}

/** One folder of a node's layout and why it was chosen (the inventory, the process's environment, a package's folder…). */
export interface LayoutChoice {
  path: string;
  why: string;
}

/** A node's folders as the batched command found them (see src/audit/layout.ts for the order). */
export interface NodeLayout {
  engineHome: LayoutChoice;
  engineConfig: LayoutChoice;
  webHome: LayoutChoice;
  webConfig: LayoutChoice;
  /** How the running engine (web application) process was found, or why none was. */
  engineProcess?: { pid?: string; how: string };
  webProcess?: { pid?: string; how: string };
  /** Values seen on the host and not used (a relative path, a control character): `where: why`. */
  refused?: string[];
}

/** One read for a pack: the text, null when absent; `error` when it exists but could not be read (or leads out). */
export interface PackRead {
  text: string | null;
  error?: string;
}

/** A host's reads for check packs, keyed as src/packs/read/sources.ts names them. */
export interface PackHostReads {
  /** `search:REL` or `web:REL`. */
  files: Record<string, PackRead>;
  /** By sysctl name (`vm.max_map_count`). */
  sysctls: Record<string, PackRead>;
  meminfo?: PackRead;
  /** The engine process's `limits` table; null text when no process was found. */
  limits?: PackRead;
  jvmOptions?: PackRead;
  /** `config/jvm.options.d/*.options`, by file name. */
  jvmOptionsD?: Record<string, PackRead>;
  /** `$search_home/jdk/release`. */
  jdkRelease?: PackRead;
  /** PEM files under `config/` (and one folder below), by path relative to `config/`. */
  certs?: Record<string, PackRead>;
  /** What the sources with lines of their own read (packs/sources/kind.ts `host:`): by kind, then by key. */
  byKind?: Record<string, Record<string, PackRead>>;
  /** The engine process's `/proc/<pid>/stat`, the host's `/proc/stat` and `getconf CLK_TCK` (`started_at`). */
  procStat?: PackRead;
  bootStat?: PackRead;
  clkTck?: PackRead;
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
  /** GET /LIMITS_INDEX/_doc/base_limit */
  baseLimitDoc?: ApiAnswer;
  /** GET /LIMITS_INDEX/_settings */
  limitsSettings?: ApiAnswer;
  /** GET /_cat/shards/LIMITS_INDEX?format=json */
  limitsShards: CatRow[];
  /** GET /_cluster/settings?flat_settings=true */
  clusterSettings?: ApiAnswer;
  /** GET /.smdoctor-lease/_doc/fix: a fix running on the cluster, or one that died. */
  lease?: ApiAnswer;
  /** `version.number` of GET /, when it was read. */
  version?: string;
  /** The check packs' GETs, by path as the pack wrote it (with its query). */
  packReads?: Record<string, ApiAnswer>;
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
