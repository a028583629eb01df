import t from 'tap';
import { CHECKS, runChecks } from '../../../src/checks/index.ts';
import { CHECK_IDS, type Check } from '../../../src/model/index.ts';
import { cluster, withNode } from '../../helpers/checks/facts.ts';

t.test('CHECKS are the troubleshooting rows in order', async (t) => {
  t.same(
    CHECKS.map((c) => c.id),
    [...CHECK_IDS],
  );
  t.same(
    CHECKS.map((c) => c.order),
    [1, 2, 3, 4, 5],
  );
  CHECKS.forEach((c, i) =>
    t.match(c.troubleshootingRow, new RegExp(`^\\| ${i + 1} \\| `), `${c.id} quotes row ${i + 1}`),
  );
});

t.test('a healthy cluster passes every check', async (t) => {
  const results = runChecks(cluster());
  t.same(
    results.map((r) => r.status),
    ['pass', 'pass', 'pass', 'pass', 'pass'],
    JSON.stringify(results.filter((r) => r.status !== 'pass')),
  );
  for (const r of results) t.same(r.actions, [], `${r.id}: no actions`);
});

t.test('only: the others are skipped with a reason', async (t) => {
  const results = runChecks(cluster(), ['master-plugins', 'base-limit-document']);
  t.same(
    results.map((r) => r.status),
    ['pass', 'skip', 'skip', 'pass', 'skip'],
  );
  t.match(results[1], { id: 'master-node-with-sme', order: 2, reason: /not selected/, findings: [], actions: [] });
});

t.test('a throwing check is an error and the others still run', async (t) => {
  const boom: Check = {
    id: 'dashboards-hosts',
    order: 3,
    troubleshootingRow: 'x',
    run: () => {
      throw new Error('kaboom');
    },
  };
  const checks = CHECKS.map((c) => (c.id === 'dashboards-hosts' ? boom : c));
  const results = runChecks(cluster(), undefined, checks);
  t.match(results[2], { id: 'dashboards-hosts', status: 'error', reason: /kaboom/ });
  t.same(results.filter((r) => r.status === 'pass').length, 4);
});

t.test('restarts are listed once per node per service: the last check keeps it', async (t) => {
  // m1 has node_with_sme true (check 2) and the job-scheduler plugins (check 4).
  const nodes = withNode('m1', { sme: true, plugins: ['sm-job-scheduler'] });
  const results = runChecks(cluster({ nodes }));
  const two = results[1];
  const four = results[3];
  t.equal(two.status, 'fail');
  t.equal(four.status, 'fail');
  t.same(
    two.actions.map((a) => a.type),
    ['set-yaml'],
    'check 2 keeps its edit only',
  );
  t.same(
    four.actions.map((a) => a.type),
    ['remove-plugin', 'remove-keystore-entry', 'restart-service'],
  );
  t.match(four.actions[2], { host: 'm1', service: 'opensearch', command: 'systemctl restart opensearch' });
  t.match(two.findings, [
    { host: 'm1' },
    {
      host: 'm1',
      kind: 'note',
      message: /planned by check master-plugins/,
      evidence: { planned_by: 'master-plugins' },
    },
  ]);
  const restarts = results.flatMap((r) => r.actions).filter((a) => a.type === 'restart-service');
  t.equal(restarts.length, 1);

  // Another node, another service: not merged.
  const other = runChecks(
    cluster({
      nodes: withNode('m2', { sme: true }).map((n) => (n.name === 'm1' ? { ...n, plugins: ['sm-sigma'] } : n)),
    }),
  );
  t.same(
    other.flatMap((r) => r.actions.filter((a) => a.type === 'restart-service').map((a) => `${r.id}:${a.host}`)),
    ['master-node-with-sme:m2', 'master-plugins:m1'],
  );

  // Only check 2 selected: it keeps its restart.
  const alone = runChecks(cluster({ nodes }), ['master-node-with-sme']);
  t.same(
    alone[1].actions.map((a) => a.type),
    ['set-yaml', 'restart-service'],
  );
});
