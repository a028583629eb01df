import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CHECK_IDS, InputError } from 'smdoctor';
import type { Scenario, ScenarioNode } from './model.ts';
import { parseScenario, SCENARIO_DIR } from './scenario-parse.ts';

const SME_PLUGINS = [
  'sme-re',
  'sm-job-scheduler',
  'sm-sigma',
  'sm-job-scheduler-actions-incident',
  'sm-job-scheduler-actions-mitre',
];
const MASTER_BAD_PLUGINS = SME_PLUGINS.slice(1);

/**
 * Several small clusters of the healthy topology: cluster 1 is healthy, cluster k≥2
 * carries cause CHECK_IDS[(k-2) % 5]. Hosts are named `c<k>-m<i>` / `c<k>-d<i>`;
 * each cluster's first data node is also its web host.
 */
export function fleetScenario(clusters: number, nodesPerCluster: number): Scenario {
  if (!Number.isInteger(clusters) || clusters < 1 || clusters > 40)
    throw new InputError(`fleet: clusters must be 1..40, got ${clusters}`);
  if (!Number.isInteger(nodesPerCluster) || nodesPerCluster < 2 || nodesPerCluster > 50) {
    throw new InputError(`fleet: nodes per cluster must be 2..50, got ${nodesPerCluster}`);
  }
  const healthy = parseScenario(
    readFileSync(join(SCENARIO_DIR, 'healthy.yml'), 'utf8'),
    join(SCENARIO_DIR, 'healthy.yml'),
  );
  const out: Scenario[] = [];
  for (let k = 1; k <= clusters; k++) {
    const cause = k === 1 ? undefined : CHECK_IDS[(k - 2) % CHECK_IDS.length];
    out.push(fleetCluster(k, nodesPerCluster, structuredClone(healthy.indices), cause));
  }
  return {
    name: 'fleet',
    description: `${clusters} clusters of ${nodesPerCluster} nodes; cluster 1 healthy, each other breaks one check`,
    engine: healthy.engine,
    nodes: out.flatMap((c) => c.nodes),
    indices: [],
    clusters: out,
  };
}

function fleetCluster(k: number, n: number, indices: Scenario['indices'], cause?: string): Scenario {
  const managers = n >= 5 ? 3 : 1;
  const nodes: ScenarioNode[] = [];
  for (let i = 1; i <= managers; i++) {
    nodes.push({
      name: `c${k}-m${i}`,
      roles: ['cluster_manager'],
      attrs: { node_with_sme: false },
      yml_style: i % 2 ? 'flat' : 'nested',
    });
  }
  for (let i = 1; i <= n - managers; i++) {
    nodes.push({
      name: `c${k}-d${i}`,
      roles: ['data', 'ingest'],
      attrs: { node_with_sme: true },
      yml_style: i % 2 ? 'nested' : 'flat',
      plugins: [...SME_PLUGINS],
      keystore: ['jobscheduler.email.pass'],
    });
  }
  const data = nodes.filter((x) => x.roles.includes('data')).map((x) => x.name);
  const m1 = nodes[0]!;
  const web = nodes[managers]!;
  web.dashboards_hosts = data;
  const limits = indices.find((x) => x.name === '.sm_sme_limits_user')!;
  switch (cause) {
    case 'base-limit-document':
      delete limits.docs?.base_limit;
      break;
    case 'master-node-with-sme':
      m1.attrs = { node_with_sme: true };
      break;
    case 'dashboards-hosts':
      web.dashboards_hosts = [...data, m1.name];
      break;
    case 'master-plugins':
      m1.plugins = [...MASTER_BAD_PLUGINS];
      m1.keystore = ['jobscheduler.email.pass'];
      break;
    case 'limits-index-replicas':
      (limits.settings!.index as Record<string, unknown>).auto_expand_replicas = 'false';
      break;
  }
  return { name: `c${k}`, cluster_name: `c${k}`, description: cause ? `breaks ${cause}` : 'healthy', nodes, indices };
}
