/** Node roles, from a config file or from `_cat/nodes`, spelled so that the two compare. */
import type { ParsedYaml } from '../yamledit/index.ts';
import { readSetting } from './yml.ts';
import type { EngineEnv, Resolved } from './placeholders.ts';

export const DEFAULT_ROLES = ['cluster_manager', 'data', 'ingest', 'remote_cluster_client'];

const truthy = (v: unknown): boolean => v === true || String(v).toLowerCase() === 'true';

/**
 * Roles a node would run with from its config: node.roles, else legacy node.master/data/ingest, else the defaults;
 * placeholders resolved from the engine's environment (unknown when it could not be read).
 */
export function configRoles(doc: ParsedYaml, env: EngineEnv): Resolved<string[]> {
  const roles = readSetting(doc, 'node.roles', env);
  if (roles.state !== 'value') return roles;
  if (Array.isArray(roles.value)) return { state: 'value', value: normRoles(roles.value.map(String)) };
  if (typeof roles.value === 'string')
    return {
      state: 'value',
      value: normRoles(
        roles.value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    };
  const legacy: Array<[string, string]> = [
    ['node.master', 'cluster_manager'],
    ['node.data', 'data'],
    ['node.ingest', 'ingest'],
  ];
  const out: string[] = [];
  let set = false;
  for (const [key, role] of legacy) {
    const v = readSetting(doc, key, env);
    if (v.state !== 'value') return v;
    // `node.master:` with no value reads as unset, as before placeholders
    const unset = v.value === undefined || v.value === null;
    set ||= !unset;
    if (unset || truthy(v.value)) out.push(role);
  }
  return { state: 'value', value: set ? normRoles([...out, 'remote_cluster_client']) : [...DEFAULT_ROLES] };
}

/** Sorted, with legacy `master` spelled `cluster_manager` so config and running roles compare. */
export function normRoles(roles: string[]): string[] {
  return [...new Set(roles.map((r) => (r === 'master' ? 'cluster_manager' : r)))].sort();
}

export const isMasterRole = (roles: string[]): boolean => roles.includes('cluster_manager') || roles.includes('master');

/** `node.roles` of a `_cat/nodes` row: comma-joined, `-` when the node has none. */
export const splitRoles = (v: string | null | undefined): string[] =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '' && s !== '-');

/** A data role is `data` or any `data_*` tier (data_hot, data_content, …). */
export const isDataRole = (role: string): boolean => role === 'data' || role.startsWith('data_');
