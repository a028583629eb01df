/** Reads engine configs the way the engine does, through src/yamledit: flat dotted keys and nested maps are the same setting. */
import { parseYaml, readKey, type ParsedYaml } from '../yamledit/index.ts';

export interface ParsedYml {
  doc: ParsedYaml;
  /** The first problem (bad YAML, a key set twice), as `line:col: message`; keys then read as absent. */
  error?: string;
}

export function parseYml(text: string): ParsedYml {
  const doc = parseYaml(text);
  const e = doc.errors[0];
  return e ? { doc, error: `${e.line}:${e.col}: ${e.message}` } : { doc };
}

/** Value of a dotted key, whatever mix of flat and nested spelling the file uses. */
export function getDotted(doc: ParsedYaml, key: string): unknown {
  return readKey(doc, key).found?.value ?? undefined;
}

export const DEFAULT_ROLES = ['cluster_manager', 'data', 'ingest', 'remote_cluster_client'];

const truthy = (v: unknown): boolean => v === true || String(v).toLowerCase() === 'true';

/** Roles a node would run with from its config: node.roles, else legacy node.master/data/ingest, else the defaults. */
export function configRoles(doc: ParsedYaml): string[] {
  const roles = getDotted(doc, 'node.roles');
  if (Array.isArray(roles)) return normRoles(roles.map(String));
  if (typeof roles === 'string') return normRoles(roles.split(',').map((s) => s.trim()).filter(Boolean));
  const legacy: Array<[string, string]> = [['node.master', 'cluster_manager'], ['node.data', 'data'], ['node.ingest', 'ingest']];
  if (!legacy.some(([k]) => getDotted(doc, k) !== undefined)) return [...DEFAULT_ROLES];
  const out = legacy.filter(([k]) => {
    const v = getDotted(doc, k);
    return v === undefined || truthy(v);
  }).map(([, r]) => r);
  return normRoles([...out, 'remote_cluster_client']);
}

/** Sorted, with legacy `master` spelled `cluster_manager` so config and running roles compare. */
export function normRoles(roles: string[]): string[] {
  return [...new Set(roles.map((r) => (r === 'master' ? 'cluster_manager' : r)))].sort();
}

export const isMasterRole = (roles: string[]): boolean => roles.includes('cluster_manager') || roles.includes('master');
