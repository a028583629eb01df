/** The Ansible inventory as smdoctor reads it (the README's "Inventory"). */
export type {
  ClusterGroup,
  HostConfig,
  HostKeyPolicy,
  Inventory,
  InventoryGroup,
  InventoryHost,
  Vars,
} from './types.ts';
export { loadInventory, parseInventory, resolveInventoryPath } from './load.ts';
export { selectHosts, splitPattern } from './select.ts';
export { hostConfig, ansibleBool } from './hostconfig.ts';
export { clustersOf } from './clusters.ts';
export { redactVars, isSecretKey, REDACTED } from './redact.ts';
export { listJson, graphText, hostJson } from './render.ts';
export { expandHostPattern, expandRange } from './ranges.ts';
