/** Small in-memory inventories for tests that read hosts through the OpenSSH configuration. */
import { join } from 'node:path';
import type { Inventory, Vars } from '../../src/inventory/types.ts';

/** Hosts named by `vars`, each with `ssh_config_file` set to `sshConfig` under its own vars; no groups. */
export function sshConfigInventory(dir: string, sshConfig: string, vars: Record<string, Vars>): Inventory {
  return {
    file: join(dir, 'inventory.yml'),
    hosts: new Map(
      Object.entries(vars).map(([name, v]) => [name, { name, groups: [], vars: { ssh_config_file: sshConfig, ...v } }]),
    ),
    groups: new Map(),
  };
}
