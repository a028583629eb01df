/** A report with every status, every kind of action, notes, and a secret in a diff's context. */
import type { Report } from '../../../src/model/index.ts';

export function sample(): Report {
  return {
    tool: 'smdoctor',
    version: '0.1.0',
    mode: 'audit',
    clusters: [
      {
        api_url: 'https://10.0.0.1:9200',
        name: 'prod <&> "one"',
        nodes: [{ host: 'm1', address: '10.0.0.1', name: 'm1', roles: ['cluster_manager'], reachable: true }],
        notes: [
          {
            host: 'd9',
            message: 'restart pending: plugins differ',
            evidence: { kind: 'restart-pending', what: 'plugins' },
          },
        ],
        checks: [
          {
            id: 'base-limit-document',
            order: 1,
            status: 'pass',
            reason: 'the base limit document is found',
            findings: [],
            actions: [],
          },
          {
            id: 'master-node-with-sme',
            order: 2,
            status: 'fail',
            reason: 'node_with_sme is true on 1 master node',
            findings: [
              {
                host: 'm1',
                message: 'node.attr.node_with_sme is true',
                evidence: { file: '/app/opensearch/config/opensearch.yml', line: 3, value: true },
              },
            ],
            actions: [
              {
                type: 'set-yaml',
                host: 'm1',
                path: '/app/opensearch/config/opensearch.yml',
                key: 'node.attr.node_with_sme',
                value: false,
                status: 'planned',
                diff: '--- m1:/app/opensearch/config/opensearch.yml\n+++ m1:/app/opensearch/config/opensearch.yml\n@@ -1,3 +1,3 @@\n plugins.security.ssl.keystore_password: hunter2\n node.roles: [cluster_manager]\n-node.attr.node_with_sme: true\n+node.attr.node_with_sme: false\n',
              },
              {
                type: 'restart-service',
                host: 'm1',
                service: 'opensearch',
                command: 'systemctl restart opensearch',
                status: 'planned',
              },
            ],
          },
          {
            id: 'dashboards-hosts',
            order: 3,
            status: 'error',
            reason: 'web host w1 is unreachable',
            findings: [],
            actions: [],
          },
          {
            id: 'master-plugins',
            order: 4,
            status: 'fail',
            reason: 'm1 carries sm-sigma',
            findings: [{ host: 'm1', message: 'plugin sm-sigma on a master' }],
            actions: [
              {
                type: 'remove-keystore-entry',
                host: 'm1',
                key: 'jobscheduler.email.pass',
                command: 'sudo -u opensearch /app/opensearch/bin/opensearch-keystore remove jobscheduler.email.pass',
                status: 'planned',
              },
            ],
          },
          {
            id: 'limits-index-replicas',
            order: 5,
            status: 'skip',
            reason: 'not asked (--check)',
            findings: [],
            actions: [
              {
                type: 'put-settings',
                method: 'PUT',
                api_path: '/.sm_sme_limits_user/_settings',
                body: { index: { auto_expand_replicas: '0-all' } },
                status: 'planned',
              },
            ],
          },
        ],
      },
      {
        api_url: 'https://10.0.1.1:9200',
        name: 'https://10.0.1.1:9200',
        nodes: [],
        notes: [],
        checks: [{ id: 'base-limit-document', order: 1, status: 'pass', reason: 'ok', findings: [], actions: [] }],
      },
    ],
    summary: { clusters: 2, hosts: 3, unreachable: 1, checks_failed: 2 },
  };
}

/** The sample as fix left it: a cluster action done, one refused by the pre-flight after it, checks re-run. */
export function fixSample(): Report {
  const r = sample();
  r.mode = 'fix';
  const [first, second] = r.clusters as [Report['clusters'][0], Report['clusters'][0]];
  const reset = {
    type: 'reset-allocation',
    method: 'PUT',
    api_path: '/_cluster/settings',
    body: { persistent: { 'cluster.routing.allocation.enable': null } },
  } as const;
  first.actions = [{ ...reset, status: 'done' }];
  first.checks[1]!.actions[0]!.status = 'done';
  first.checks[1]!.actions[1]!.status = 'failed';
  first.checks[1]!.actions[1]!.error = 'exit 1';
  first.after = { checks: [{ id: 'master-node-with-sme', status: 'fail', reason: 'restart pending' }] };
  second.actions = [{ ...reset, status: 'skipped', reason: 'refused by the pre-flight' }];
  second.refused = ['pre-flight: health is red (2 unassigned shards)', 'drift: node n4 joined'];
  r.fix = { done: 2, failed: 1, skipped: 1, interrupted: false };
  return r;
}
