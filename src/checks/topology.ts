/** What the five checks look at, node by node, as plain data for the report's pictures. Pure. */
import type { ClusterFacts, ClusterTopology, HostFacts, NodeView, TopologyNode, TopologyWeb } from '../model/index.ts';
import { DEFAULT_ENGINE_HOSTS, LIMITS_INDEX, SM_PLUGINS } from '../model/index.ts';
import { parsedFile } from '../facts/yml.ts';
import { readKey } from '../yamledit/index.ts';
import { nodeForUrl } from './dashboards-hosts.ts';
import { KEYSTORE_ENTRY } from './master-plugins.ts';
import { isTrue } from './util.ts';

/** `node.attr.node_with_sme` as the file says; null when the file was not read or cannot be parsed. */
function nodeWithSme(h: HostFacts | undefined): boolean | null {
  if (!h?.reachable || !h.engineYml) return null;
  const doc = parsedFile(h.engineYml).doc;
  if (doc.errors.length) return null;
  const v = readKey(doc, 'node.attr.node_with_sme').found?.value;
  return v === undefined ? false : isTrue(v);
}

function node(facts: ClusterFacts, n: NodeView, elected: string | null): TopologyNode {
  const h = n.host ? facts.hosts.find((x) => x.host === n.host) : undefined;
  const read = h?.reachable === true;
  return {
    name: n.name,
    host: n.host ?? null,
    address: n.ip,
    roles: n.roles,
    master: n.isMaster,
    elected: elected !== null && n.name === elected,
    reachable: read,
    node_with_sme: nodeWithSme(h),
    plugins: read ? h.plugins.map((p) => p.name).filter((p) => SM_PLUGINS.includes(p)) : null,
    keystore_entry: read && h.keystore ? h.keystore.includes(KEYSTORE_ENTRY) : null,
    limits_copies: facts.api.limitsShards
      .filter((r) => (r.index ?? LIMITS_INDEX) === LIMITS_INDEX && r.node === n.name)
      .map((r) => `${r.shard ?? '0'}${r.prirep ?? ''} ${r.state ?? ''}`.trim()),
  };
}

function web(facts: ClusterFacts, hostFacts: HostFacts): TopologyWeb {
  const file = hostFacts.reachable ? hostFacts.dashboardsYml : null;
  const doc = file ? parsedFile(file).doc : null;
  if (!doc || doc.errors.length) return { host: hostFacts.host, reachable: hostFacts.reachable, points_at: null };
  const raw = readKey(doc, `${hostFacts.config.engine}.hosts`).found?.value ?? DEFAULT_ENGINE_HOSTS;
  const urls = (Array.isArray(raw) ? raw : [raw]).map(String);
  return {
    host: hostFacts.host,
    reachable: true,
    points_at: urls.map((url) => ({ url, node: nodeForUrl(facts, url, hostFacts)?.name ?? null })),
  };
}

export function topologyOf(facts: ClusterFacts): ClusterTopology {
  const elected = facts.api.nodes.find((r) => r.cluster_manager === '*')?.name ?? null;
  const nodes = facts.nodes.map((n) => node(facts, n, elected));
  // inventory hosts that run no node of this cluster (web hosts, stopped nodes) are drawn too
  for (const h of facts.hosts.filter((x) => !facts.nodes.some((n) => n.host === x.host) && !x.isWeb))
    nodes.push({
      name: h.host,
      host: h.host,
      address: h.config.address,
      roles: [],
      master: false,
      elected: false,
      reachable: h.reachable,
      node_with_sme: nodeWithSme(h),
      plugins: h.reachable ? h.plugins.map((p) => p.name).filter((p) => SM_PLUGINS.includes(p)) : null,
      keystore_entry: h.reachable && h.keystore ? h.keystore.includes(KEYSTORE_ENTRY) : null,
      limits_copies: [],
    });
  return { nodes, web: facts.hosts.filter((h) => h.isWeb).map((h) => web(facts, h)) };
}
