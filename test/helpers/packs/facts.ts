/** Hand-built facts for the pure judging tests of check packs: nodes, their files and reads, no shell or network. */
import { cfg } from '../audit/fakes.ts';
import type { ApiFacts, ClusterFacts, HostFacts, PackHostReads } from '../../../src/model/index.ts';
import type { PackCheck, PackMatcher, PackRemedy, PackSource } from '../../../src/model/pack.ts';

export interface NodeSpec {
  name: string;
  roles?: string[];
  yml?: string;
  reads?: Partial<PackHostReads>;
  plugins?: Array<{ name: string; version?: string; engineVersion?: string }>;
  keystore?: string[] | null;
  reachable?: boolean;
  groups?: string[];
  /** The engine process's environment (`${VAR}` in its config); null: it could not be read. */
  env?: Record<string, string> | null;
}

export function host(n: NodeSpec): HostFacts {
  const c = cfg(n.name, { searchHome: '/app/opensearch', ...(n.groups ? { groups: n.groups } : {}) });
  return {
    host: n.name,
    config: c,
    reachable: n.reachable ?? true,
    ...(n.reachable === false ? { error: 'connection refused' } : {}),
    engineYml: n.yml === undefined ? null : { path: '/app/opensearch/config/opensearch.yml', text: n.yml },
    dashboardsYml: null,
    plugins: (n.plugins ?? []).map((p) => ({ folder: p.name, ...p })),
    keystore: n.keystore ?? null,
    isWeb: false,
    engineEnv: n.env ?? null,
    packReads: { files: {}, sysctls: {}, ...n.reads },
  };
}

export function cluster(nodes: NodeSpec[], api: Partial<ApiFacts> = {}): ClusterFacts {
  const hosts = nodes.map(host);
  return {
    apiUrl: 'https://10.0.0.1:9200',
    name: 'prod',
    hosts,
    api: { reachable: true, nodes: [], nodeattrs: [], plugins: [], limitsShards: [], version: '2.11.1', ...api },
    nodes: nodes.map((n, i) => ({
      name: n.name,
      ip: `10.0.0.${i + 1}`,
      roles: n.roles ?? ['data'],
      isMaster: (n.roles ?? []).includes('cluster_manager'),
      host: n.name,
    })),
  };
}

export function check(read: PackSource, expect: PackMatcher[], more: Partial<PackCheck> = {}): PackCheck {
  return {
    fullId: 'acme/c',
    id: 'c',
    title: 'T',
    severity: 'high',
    why: 'W',
    each: 'node',
    read,
    expect,
    ...more,
  };
}

export const remedy = (r: PackRemedy) => ({ remedy: r });
