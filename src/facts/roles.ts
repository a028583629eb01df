/** Node roles, from a config file or from `_cat/nodes`, spelled so that the two compare. */
import type { ParsedYaml } from '../yamledit/index.ts';
import { getDotted } from './yml.ts';

export const DEFAULT_ROLES = ['cluster_manager', 'data', 'ingest', 'remote_cluster_client'];

const truthy = (v: unknown): boolean => v === true || String(v).toLowerCase() === 'true';

/** Roles a node would run with from its config: node.roles, else legacy node.master/data/ingest, else the defaults. */
export function configRoles(doc: ParsedYaml): string[] {
  const roles = getDotted(doc, 'node.roles');
  if (Array.isArray(roles)) return normRoles(roles.map(String));
  if (typeof roles === 'string')
    return normRoles(
      roles
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
  const legacy: Array<[string, string]> = [
    ['node.master', 'cluster_manager'],
    ['node.data', 'data'],
    ['node.ingest', 'ingest'],
  ];
  if (!legacy.some(([k]) => getDotted(doc, k) !== undefined)) return [...DEFAULT_ROLES];
  const out = legacy
    .filter(([k]) => {
      const v = getDotted(doc, k);
      return v === undefined || truthy(v);
    })
    .map(([, r]) => r);
  return normRoles([...out, 'remote_cluster_client']);
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
