import type { SourcePos } from '../errors.ts';

/** The inventory as resolved: what the transport, the gatherer and `inventory --list` consume. */

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
  /** Set by the command line (--ssh-config, --jump-channels). */
  access?: AccessOptions;
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
  /** OpenSSH client configuration, resolved (ssh_config, ansible_ssh_common_args): set only when one applies. */
  ssh?: SshAccess;
  /** api_via_ssh: tunnel the REST API through SSH to the cluster's first reachable host (true) or this host. */
  apiViaSsh?: true | string;
}

/** What OpenSSH's configuration adds to a host's connection: keys, checks, and the path to reach it. */
export interface SshAccess {
  /** The file it came from ('/dev/null' when only command-line options applied). */
  configFile: string;
  /** IdentityFile values that exist to try, in order, when no ansible_ssh_private_key_file is set. */
  identityFiles: string[];
  identitiesOnly: boolean;
  hostKeyAlias?: string;
  /** Jump hosts in the order they are connected: the last one forwards to this host. */
  jumps: HostConfig[];
  /** ProxyCommand with %h %p %r substituted (run by /bin/sh). */
  proxyCommand?: string;
  /** Seconds. */
  connectTimeout?: number;
  /** Seconds; 0 is off. */
  serverAliveInterval?: number;
  /** Told once per run: options that change behaviour and are ignored, the subset parser's use. */
  warnings: string[];
  /** --jump-channels. */
  jumpChannels?: number;
}

/** Run-wide access options from the command line. */
export interface AccessOptions {
  /** --ssh-config FILE. */
  sshConfigFile?: string;
  /** --jump-channels N: channels open at once on each jump host. */
  jumpChannels?: number;
}

/** Hosts that share an effective api_url form one cluster. */
export interface ClusterGroup {
  apiUrl: string;
  hosts: string[];
}
