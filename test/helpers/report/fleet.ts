/** A report at fleet scale, generated: N clusters × the vendor's five and pack checks from three packs, most passing,
 * some failing, erroring or waived on some clusters, the way a fleet with its team's packs looks. Deterministic. */
import {
  CHECK_IDS,
  type AnyCheckId,
  type CheckResult,
  type CheckStatus,
  type Report,
} from '../../../src/model/index.ts';
import type { Severity } from '../../../src/model/index.ts';

const PACKS: Array<[pack: string, checks: string[]]> = [
  [
    'fleet',
    [
      'tls-certificate-expiry',
      'tls-certificate-expiry-critical',
      'demo-certificates',
      'demo-certificates-allowed',
      'plugin-engine-version',
      'plugins-same-on-nodes',
      'heap-size',
      'vm-max-map-count',
      'memory-lock',
      'legacy-role-settings',
      'initial-cluster-manager-nodes',
      'discovery-seed-hosts',
      'disk-high-watermark',
      'index-read-only-allow-delete',
      'shard-headroom',
      'keystore-loaded',
      'mixed-engine-versions',
    ],
  ],
  [
    'acme-storage',
    [
      'snapshot-repository-registered',
      'snapshot-within-24h',
      'ilm-policy-on-logs',
      'replicas-at-least-one',
      'no-red-indices',
      'shard-size-under-50g',
      'fielddata-breaker-headroom',
      'translog-durability-request',
      'refresh-interval-on-bulk-indices',
    ],
  ],
  [
    'acme-security',
    [
      'audit-log-enabled',
      'anonymous-auth-disabled',
      'admin-dn-restricted',
      'tls-protocols-modern',
      'ssl-hostname-verification',
      'kibana-server-user-rotated',
      'internal-users-hashed',
      'rest-api-roles-minimal',
      'node-dn-pinned',
    ],
  ],
];

const SEVERITIES: Severity[] = ['critical', 'high', 'high', 'medium', 'low', 'info'];

/** Which (cluster, check) cells do not pass: a few checks fail often, some rarely, most never. */
function statusOf(ci: number, k: number): CheckStatus {
  if (k === 1 && ci % 3 === 0) return 'fail';
  if (k === 7 && ci % 5 === 1) return 'fail';
  if (k === 11 && ci % 7 === 2) return 'fail';
  if (k === 23 && ci % 4 === 3) return 'error';
  if (k === 30 && ci % 9 === 4) return 'waived';
  if (k === 36 && ci === 17) return 'fail';
  if (k === 4 && ci === 38) return 'skip';
  return 'pass';
}

export function fleetReport(clusters = 40, checks = 40): Report {
  const ids: AnyCheckId[] = [...CHECK_IDS, ...PACKS.flatMap(([p, cs]) => cs.map((c): AnyCheckId => `${p}/${c}`))].slice(
    0,
    checks,
  );
  const report: Report = {
    schema_version: 2,
    generated_at: '2026-12-07T08:00:00.000Z',
    tool: 'smdoctor',
    version: '0.5.0',
    mode: 'audit',
    clusters: Array.from({ length: clusters }, (_, ci) => {
      const region = ['eu-west', 'us-east', 'ap-south', 'eu-north'][ci % 4];
      const name = `search-${region}-${String(ci + 1).padStart(2, '0')}`;
      const api = `https://10.${ci}.0.1:9200`;
      return {
        api_url: api,
        name,
        nodes: [1, 2, 3].map((n) => ({
          host: `${name}-n${n}`,
          address: `10.${ci}.0.${n}`,
          name: `n${n}`,
          roles: n === 1 ? ['cluster_manager'] : ['data', 'ingest'],
          reachable: true,
        })),
        notes: [],
        checks: ids.map((id, k): CheckResult => {
          const status = statusOf(ci, k);
          const pack = id.includes('/');
          return {
            id,
            order: k + 1,
            status,
            ...(pack
              ? {
                  severity: SEVERITIES[k % SEVERITIES.length]!,
                  title: `${id.split('/')[1]} holds`,
                  why: `Why ${id} matters: a paragraph of advice that a reader needs only when it does not pass.`,
                  docs: `https://docs.example/${id}`,
                }
              : {}),
            ...(status === 'waived' ? { waiver: { reason: 'OPS-123, being migrated', expires: '2027-01-31' } } : {}),
            reason:
              status === 'pass'
                ? `holds on 3 node(s) in scope`
                : status === 'error'
                  ? 'n2: the file could not be read (permission denied)'
                  : status === 'skip'
                    ? 'not asked (--check)'
                    : `does not hold on n${(ci % 3) + 1}`,
            findings:
              status === 'fail' || status === 'waived'
                ? [
                    {
                      host: `${name}-n${(ci % 3) + 1}`,
                      message: `${id} does not hold`,
                      evidence: { file: '/etc/x.yml', line: k },
                    },
                  ]
                : [],
            actions: [],
          };
        }),
      };
    }),
    summary: { clusters, hosts: clusters * 3, unreachable: 0, checks_failed: 0 },
  };
  report.summary.checks_failed = report.clusters.reduce(
    (n, c) => n + c.checks.filter((k) => k.status === 'fail').length,
    0,
  );
  return report;
}
