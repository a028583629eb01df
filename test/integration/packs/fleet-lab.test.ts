/**
 * `audit --pack builtin:fleet` over real sshd and the lab's API: on fleet-drift every item of issue 34 fails on the
 * node the scenario gives it, on healthy every check holds.
 */
import t, { type Test } from 'tap';
import { runCli } from '../../helpers/cli.ts';
import { parseReport } from '../../helpers/schema.ts';
import { startLab } from '../../../lab/src/index.ts';
import type { Report } from '../../../src/model/index.ts';

async function audit(scenario: string, t: Test) {
  const lab = await startLab({ scenario });
  t.teardown(() => lab.stop());
  const r = await runCli(
    ['audit', '-i', lab.inventoryPath, '--format', 'json', '--timeout', '30', '--pack', 'builtin:fleet'],
    { cwd: '/tmp' },
  );
  const report = parseReport<Report>(r.out);
  const checks = new Map(report.clusters[0]!.checks.map((c) => [c.id, c]));
  return { code: r.code, err: r.err, checks };
}

// check → the nodes fleet-drift gives its failure (lab/scenarios/fleet-drift.yml); [] is the cluster itself
const DRIFT: Array<[id: string, hosts: string[]]> = [
  ['tls-certificate-expiry', ['d1', 'm3']],
  ['tls-certificate-expiry-critical', ['m3']],
  ['demo-certificates', ['d2']],
  ['demo-certificates-allowed', ['d2']],
  ['plugin-engine-version', ['d3']],
  ['plugins-same-on-nodes', ['d3']],
  ['heap-size', ['d1']],
  ['vm-max-map-count', ['d2']],
  ['memory-lock', ['d1']],
  ['legacy-role-settings', ['m2']],
  ['initial-cluster-manager-nodes', ['m1']],
  ['discovery-seed-hosts', ['d3']],
  ['disk-high-watermark', ['d2']],
  ['index-read-only-allow-delete', []],
  ['shard-headroom', []],
  ['keystore-loaded', ['d1']],
  ['mixed-engine-versions', ['m3']],
];

t.test('fleet-drift: every fleet check fails, each on its node', async (t) => {
  const { code, checks } = await audit('fleet-drift', t);
  t.equal(code, 1, 'failures: exit 1');
  t.same(
    [...checks.keys()].filter((id) => id.startsWith('fleet/')),
    DRIFT.map(([id]) => `fleet/${id}`),
    'the seventeen checks, in the pack order, after the vendor five',
  );
  for (const [id, hosts] of DRIFT) {
    const c = checks.get(`fleet/${id}`)!;
    t.equal(c.status, 'fail', `${id}: ${c.reason}`);
    const failed = [...new Set(c.findings.map((f) => f.host).filter((h): h is string => !!h))].sort();
    t.same(failed, hosts, `${id} fails on ${hosts.join(', ') || 'the cluster'}`);
  }
  t.match(checks.get('fleet/mixed-engine-versions')!.findings[0]?.message, /2\.11\.0/);
  t.match(
    checks.get('fleet/discovery-seed-hosts')!.findings[0]?.message,
    /misses the manager-eligible m3.*192\.0\.2\.10/,
  );
});

t.test('healthy: every fleet check holds', async (t) => {
  const { code, checks, err } = await audit('healthy', t);
  t.equal(code, 0, err);
  for (const [id] of DRIFT) {
    const c = checks.get(`fleet/${id}`)!;
    t.equal(c.status, 'pass', `${id}: ${c.reason}`);
  }
});
