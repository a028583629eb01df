/** Running cluster versus inventory and files: which node is which host, and what does not add up. */
import { findRow } from './match.ts';
import type { ApiFacts, CatRow, Finding, HostFacts, NodeView } from '../model/index.ts';
import { getDotted, parsedFile, readSetting } from '../facts/yml.ts';
import type { Resolved } from '../facts/placeholders.ts';
import { configRoles, isMasterRole, normRoles, splitRoles } from '../facts/roles.ts';

export interface Correlation {
  nodes: NodeView[];
  notes: Finding[];
}

const nodeNameOf = (hostFacts: HostFacts): string | undefined => {
  if (!hostFacts.engineYml) return undefined;
  const v = getDotted(parsedFile(hostFacts.engineYml).doc, 'node.name');
  return v === undefined || v === null ? undefined : String(v);
};

export function nodeViews(rows: CatRow[], hosts: HostFacts[]): NodeView[] {
  const ids = hosts.map((h) => {
    const nodeName = nodeNameOf(h);
    return { host: h.host, address: h.config.address, ...(nodeName ? { nodeName } : {}) };
  });
  return rows.map((row) => {
    const roles = splitRoles(row['node.roles']);
    const id = ids.find((i) => findRow([row], i) !== undefined && findRow(rows, i) === row);
    return {
      name: row.name ?? '',
      ip: row.ip ?? '',
      roles,
      isMaster: isMasterRole(roles),
      ...(id ? { host: id.host } : {}),
    };
  });
}

/** Checks that cannot see everything when a node's files are out of reach. */
function incompleteChecks(v: NodeView): string[] {
  // a master's config (2) and its on-disk plugins and keystore (4) are unread; any node may run an unread web-application config (3)
  return v.isMaster ? ['master-node-with-sme', 'dashboards-hosts', 'master-plugins'] : ['dashboards-hosts'];
}

export function correlate(hosts: HostFacts[], api: ApiFacts): Correlation {
  const nodes = nodeViews(api.nodes, hosts);
  const notes: Finding[] = [];
  if (!api.reachable) {
    notes.push({
      message: `REST API could not be read: ${api.error ?? 'unknown error'}; the running state is unknown`,
      evidence: { kind: 'api-unreachable' },
    });
  }
  for (const h of hosts.filter((x) => !x.reachable)) {
    notes.push({
      host: h.host,
      message: `unreachable: ${h.error ?? 'unknown error'}; its files were not checked`,
      evidence: { kind: 'host-unreachable', address: h.config.address },
    });
  }
  for (const h of hosts.filter((x) => x.reachable && x.error)) {
    notes.push({ host: h.host, message: `read incompletely: ${h.error}`, evidence: { kind: 'read-error' } });
  }
  for (const v of nodes.filter((n) => !n.host)) {
    const checks = incompleteChecks(v);
    notes.push({
      message: `cluster node ${v.name} (${v.ip}, ${v.roles.join(',') || 'no roles'}) is not in the inventory: its files cannot be checked, so ${checks.join(', ')} ${checks.length > 1 ? 'are' : 'is'} incomplete`,
      evidence: { kind: 'node-not-in-inventory', node: v.name, ip: v.ip, roles: v.roles, incomplete_checks: checks },
    });
  }
  if (api.reachable) {
    for (const h of hosts.filter((x) => x.reachable && !nodes.some((n) => n.host === x.host))) {
      if (h.isWeb && !h.engineYml) continue; // a web-application-only host is not a cluster node
      notes.push({
        host: h.host,
        message: `in the inventory but not a node of the running cluster (address ${h.config.address})`,
        evidence: { kind: 'host-not-in-cluster', address: h.config.address },
      });
    }
    notes.push(...restartPending(hosts, nodes, api));
  }
  return { nodes, notes };
}

const sameSet = (a: string[], b: string[]): boolean => a.length === b.length && a.every((x) => b.includes(x));

/** The file on disk says one thing, the running node another: a restart is pending. */
function restartPending(hosts: HostFacts[], nodes: NodeView[], api: ApiFacts): Finding[] {
  const out: Finding[] = [];
  for (const v of nodes) {
    const h = hosts.find((x) => x.host === v.host);
    if (!h?.reachable || !h.engineYml) continue;
    const { doc, error } = parsedFile(h.engineYml);
    if (error) {
      out.push({
        host: h.host,
        message: `${h.engineYml.path} is not valid YAML: ${error}`,
        evidence: { kind: 'config-invalid', file: h.engineYml.path },
      });
      continue;
    }
    const pending = (what: string, config: unknown, running: unknown): void => {
      out.push({
        host: h.host,
        message: `restart pending: ${what} differs between ${h.engineYml!.path} and the running node ${v.name}`,
        evidence: { kind: 'restart-pending', what, config, running },
      });
    };
    // a placeholder the file alone cannot resolve: say so, and judge from the running node, never claim a restart
    const unsure = (what: string, r: Exclude<Resolved<unknown>, { state: 'value' }>, running: unknown): void => {
      const path = h.engineYml!.path;
      out.push(
        r.state === 'unknown'
          ? {
              host: h.host,
              kind: 'unverified',
              message: `${what} in ${path} is set from ${r.names.map((n) => `\${${n}}`).join(', ')} and the running engine's environment could not be read on this host: unknown from the file; the running node ${v.name} has ${JSON.stringify(running)}`,
              evidence: { kind: 'setting-unknown', what, placeholders: r.names, running },
            }
          : r.state === 'limit'
            ? {
                host: h.host,
                kind: 'unverified',
                message: `${what} in ${path} is not judged: its placeholders go past what smdoctor resolves (${r.message}); the running node ${v.name} has ${JSON.stringify(running)}`,
                evidence: { kind: 'setting-unresolvable', what, reason: r.message, running },
              }
            : {
                host: h.host,
                message: `${what} in ${path} cannot be resolved from the running engine's environment (${r.message}): the engine would refuse to start with this file`,
                evidence: { kind: 'setting-unresolvable', what, reason: r.message, running },
              },
      );
    };
    const want = configRoles(doc, h.engineEnv);
    const have = normRoles(v.roles);
    if (want.state !== 'value') unsure('node.roles', want, have);
    else if (!sameSet(want.value, have)) pending('node.roles', want.value, have);
    const attrCfg = readSetting(doc, 'node.attr.node_with_sme', h.engineEnv);
    const attrRow = api.nodeattrs.find((r) => r.node === v.name && r.attr === 'node_with_sme');
    const runVal = attrRow?.value === undefined || attrRow.value === null ? null : attrRow.value.toLowerCase();
    if (attrCfg.state !== 'value') unsure('node.attr.node_with_sme', attrCfg, runVal);
    else {
      const cfgVal = attrCfg.value === undefined || attrCfg.value === null ? null : String(attrCfg.value).toLowerCase();
      if (cfgVal !== runVal) pending('node.attr.node_with_sme', cfgVal, runVal);
    }
    const disk = [...new Set(h.plugins.map((p) => p.name))].sort();
    const loaded = [...new Set(api.plugins.filter((p) => p.name === v.name).map((p) => p.component ?? ''))].sort();
    if (!sameSet(disk, loaded)) pending('plugins', disk, loaded);
  }
  return out;
}
