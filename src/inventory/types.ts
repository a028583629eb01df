import type { SourcePos } from '../base/errors.ts';
import type { ApiFields, SshFields } from '../model/index.ts';

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
  warnings?: InventoryWarning[];
}

/** What an inventory warning is about, for the CLI to decide on: the message is for people and may be reworded. */
export type InventoryWarningCode =
  | 'skipped' // a group or key Ansible skips
  | 'dangling-link' // a symbolic link in group_vars/ or host_vars/ that leads nowhere
  | 'vault-password' // a configured vault password source that could not be read
  | 'plain-password' // api_password written in plain text
  | 'playbook-dir'; // a playbook directory that is not one

export interface InventoryWarning {
  code: InventoryWarningCode;
  message: string;
  pos: SourcePos;
}

/** One host's connection and layout settings, defaults applied (see the README's table of inventory variables). */
export interface HostConfig extends SshFields, ApiFields {
  name: string;
  engine: string;
  searchHome: string;
  webHome: string;
  /** search_home / web_home were written in the inventory: they then count before what the host itself says. */
  searchHomeGiven?: boolean;
  webHomeGiven?: boolean;
  /** `engine_home`, `engine_config_dir`, `web_config_dir`: the node's folders, when the inventory says them. */
  engineHome?: string;
  engineConfigDir?: string;
  webConfigDir?: string;
  engineUser: string;
  /** Template with {service}. */
  restartCommand: string;
  /** Where the host's /proc is read (`proc_root`, default `/proc`): the fleet pack's memory, sysctls and process. */
  procRoot?: string;
  /** The engine process's pid file (`engine_pid_file`, default `/var/run/<engine>/<engine>.pid`, as the packages write it). */
  enginePidFile?: string;
  /** In a group named `dashboards`. */
  inDashboardsGroup: boolean;
  /** Every inventory group of the host (check packs' `scope.groups`). */
  groups?: string[];
  /** api_via_ssh: tunnel the REST API through SSH to the cluster's first reachable host (true) or this host. */
  apiViaSsh?: true | string;
}

/** Run-wide access options from the command line. */
/** Hosts that share an effective api_url form one cluster. */
export interface ClusterGroup {
  apiUrl: string;
  hosts: string[];
}
