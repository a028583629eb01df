import type { SourcePos } from '../errors.ts';

/** The inventory as resolved: what the gatherer and `inventory --list` consume; reach/ maps it onto SSH and API. */

export type Vars = Record<string, unknown>;

export interface InventoryHost {
  name: string;
  /** Every group it belongs to, directly or through children, without "all", sorted. */
  groups: string[];
  /** Merged as Ansible merges them: all, then groups by depth then name, then the host. */
  vars: Vars;
}

export interface InventoryGroup {
  name: string;
  children: string[];
  hosts: string[];
  vars: Vars;
}

export interface Inventory {
  file: string;
  hosts: Map<string, InventoryHost>;
  groups: Map<string, InventoryGroup>;
  /** What Ansible warns about and skips (e.g. an unknown key under a group), positioned. */
  warnings?: Array<{ message: string; pos: SourcePos }>;
}

export type HostKeyPolicy = 'strict' | 'accept-new' | 'off';

/** One host's connection and layout settings, defaults applied (PRODUCT.md variable table). */
export interface HostConfig {
  name: string;
  connection: 'ssh' | 'local';
  address: string;
  port: number;
  user: string;
  privateKeyFile?: string;
  become: boolean;
  knownHostsFile: string;
  hostKeyChecking: HostKeyPolicy;
  engine: string;
  searchHome: string;
  webHome: string;
  engineUser: string;
  /** Template with {service}. */
  restartCommand: string;
  /** Without userinfo: credentials written into api_url are in apiUrlUsername/apiUrlPassword. */
  apiUrl: string;
  apiUsername?: string;
  apiUrlUsername?: string;
  /** A secret: remembered for redaction when read. */
  apiUrlPassword?: string;
  apiPasswordEnv: string;
  apiPasswordFile?: string;
  /** The password itself (usually from a vault); ranks after api_password_file and api_password_env. */
  apiPassword?: string;
  apiCaFile?: string;
  apiInsecure: boolean;
  /** In a group named `dashboards`. */
  inDashboardsGroup: boolean;
  /** api_via_ssh: tunnel the REST API through SSH to the cluster's first reachable host (true) or this host. */
  apiViaSsh?: true | string;
}

/** Run-wide access options from the command line. */
/** Hosts that share an effective api_url form one cluster. */
export interface ClusterGroup {
  apiUrl: string;
  hosts: string[];
}
