/** Reading a node's `<engine>.yml` for the checks: parse once, say why when it cannot be used. */
import type { HostFacts, RemoteFile } from '../model/index.ts';
import { posText } from '../base/errors.ts';
import { readKey, type ParsedYaml } from '../yamledit/index.ts';
import { parsedFile } from '../facts/yml.ts';
import { nodePaths } from '../facts/layout.ts';
import { configRoles, isMasterRole } from '../facts/roles.ts';
import type { EngineEnv } from '../facts/placeholders.ts';

export type NodeFile = { file: RemoteFile; parsed: ParsedYaml } | { why: string };

export function engineFile(hostFacts: HostFacts): NodeFile {
  const expected = nodePaths(hostFacts).engineYml;
  if (!hostFacts.engineYml) return { why: `${expected} was not found on host ${hostFacts.host}` };
  const parsed = parsedFile(hostFacts.engineYml).doc;
  if (parsed.errors.length > 0) {
    const e = parsed.errors[0];
    return {
      why: `${posText({ file: hostFacts.engineYml.path, line: e.line, col: e.col })}: cannot be parsed (${e.code}: ${e.message})`,
    };
  }
  return { file: hostFacts.engineYml, parsed };
}

/**
 * Whether the file makes the node cluster-manager-eligible: `node.roles` when set, else legacy
 * `node.master`, else the engine's default roles (which include cluster_manager). `master` is null when a
 * placeholder the engine's environment (`env`) does not resolve here leaves it unknown from the file.
 */
export function fileIsMaster(
  parsed: ParsedYaml,
  env: EngineEnv,
): { master: boolean | null; because: string; line?: number } {
  const resolved = configRoles(parsed, env);
  const master = resolved.state === 'value' ? isMasterRole(resolved.value) : null;
  const roles = readKey(parsed, 'node.roles').found;
  if (roles) {
    const list = Array.isArray(roles.value)
      ? roles.value.map(String)
      : String(roles.value ?? '')
          .split(',')
          .map((r) => r.trim());
    return { master, because: `node.roles: [${list.join(', ')}]`, line: roles.line };
  }
  const legacy = readKey(parsed, 'node.master').found;
  if (legacy) return { master, because: `node.master: ${String(legacy.value)}`, line: legacy.line };
  return { master, because: 'no node.roles (default roles include cluster_manager)' };
}
