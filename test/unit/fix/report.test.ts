/** The fix report is made of the plan and the outcomes by pure functions: a new report, the plan as it was. */
import t from 'tap';
import { driftReport, fixReport } from '../../../src/fix/report.ts';
import { untouched, type ClusterOutcome } from '../../../src/fix/outcome.ts';
import { planSize } from '../../../src/fix/plan.ts';
import { renderJson } from '../../../src/report/json.ts';
import type { Report } from '../../../src/model/index.ts';
import { assertSchema } from '../../helpers/schema.ts';
import { NODES, deepFreeze, planned } from '../../helpers/fix/fakes.ts';

const A = 'https://10.0.0.1:9200';
const B = 'https://10.0.1.1:9200';

function plan(): Report {
  const check = (
    id: 'master-plugins' | 'limits-index-replicas',
    actions: Report['clusters'][0]['checks'][0]['actions'],
  ) => ({
    id,
    order: id === 'master-plugins' ? 4 : 5,
    status: 'fail' as const,
    reason: 'x',
    findings: [],
    actions,
  });
  return {
    schema_version: 3,
    generated_at: '2026-01-01T00:00:00.000Z',
    tool: 'smdoctor',
    version: '0',
    mode: 'audit',
    clusters: [
      {
        api_url: A,
        name: 'a',
        nodes: NODES,
        notes: [],
        actions: [planned({ type: 'reset-allocation', method: 'PUT', api_path: '/_cluster/settings', body: {} })],
        checks: [
          check('master-plugins', [
            planned({ type: 'remove-plugin', host: 'm1', value: 'sm-sigma', command: 'remove sm-sigma' }),
          ]),
          check('limits-index-replicas', [
            planned({ type: 'put-settings', method: 'PUT', api_path: '/i/_settings', body: { n: 1 } }),
            planned({ type: 'verify-shards', method: 'GET', api_path: '/_cat/shards/i' }),
          ]),
        ],
      },
      {
        api_url: B,
        name: 'b',
        nodes: [],
        notes: [],
        checks: [
          check('limits-index-replicas', [
            planned({ type: 'put-settings', method: 'PUT', api_path: '/j/_settings', body: {} }),
          ]),
        ],
      },
    ],
    summary: { clusters: 2, hosts: 3, unreachable: 0, checks_failed: 3 },
  };
}

const applied = (): { clusters: ClusterOutcome[]; interrupted: boolean } => ({
  interrupted: false,
  clusters: [
    {
      ...untouched(A),
      failed: true,
      actions: [
        { status: 'done', step: 1, reason: 'already unset' },
        { status: 'done', step: 2, backup: '/bk/m1' },
        { status: 'failed', step: 3, error: 'not acknowledged', output: 'table' },
        { status: 'skipped', cause: 'earlier-failure', step: 4, reason: 'an earlier step failed: 3. put-settings' },
      ],
    },
    {
      ...untouched(B),
      failed: true,
      refused: ['pre-flight: health is red'],
      actions: [{ status: 'refused', step: 1, reason: 'pre-flight: health is red' }],
    },
  ],
});

t.test('fixReport: each action with its outcome, the refusals and the summary, in a new report', async (t) => {
  const p = deepFreeze(plan());
  const before = structuredClone(p);
  const after: Report = {
    ...plan(),
    clusters: [
      { ...plan().clusters[0]!, checks: [{ ...plan().clusters[0]!.checks[0]!, status: 'pass', reason: 'ok' }] },
    ],
  };
  const r = fixReport(p, applied(), after);
  t.same(p, before, 'the plan is as it was');
  t.equal(r.mode, 'fix');
  const [a, b] = r.clusters;
  // the report's field order: the action's own fields, then status, reason, error, backup, output
  t.equal(
    JSON.stringify(a!.checks[1]!.actions[0]),
    '{"type":"put-settings","method":"PUT","api_path":"/i/_settings","body":{"n":1},"status":"failed","error":"not acknowledged","output":"table"}',
  );
  t.equal(
    JSON.stringify(a!.checks[0]!.actions[0]),
    '{"type":"remove-plugin","host":"m1","value":"sm-sigma","command":"remove sm-sigma","status":"done","backup":"/bk/m1"}',
  );
  t.match(a!.actions, [{ type: 'reset-allocation', status: 'done', reason: 'already unset' }]);
  t.match(a!.checks[1]!.actions[1], { status: 'skipped', reason: /^an earlier step failed/ });
  t.equal(a!.refused, undefined, 'no refusal where there was none');
  t.same(b!.refused, ['pre-flight: health is red']);
  t.match(
    b!.checks[0]!.actions,
    [{ status: 'skipped', reason: 'pre-flight: health is red' }],
    'a refused action reads skipped',
  );
  t.same(a!.after, { checks: [{ id: 'master-plugins', status: 'pass', reason: 'ok' }] });
  t.equal(b!.after, undefined, 'a cluster the audit after did not see has no after');
  t.same(r.fix, { done: 2, failed: 1, skipped: 2, interrupted: false });
  t.equal(r.clusters[0]!.nodes, p.clusters[0]!.nodes, 'what did not change is shared, not copied');
  assertSchema(t, renderJson(r));
});

t.test(
  'driftReport: drifted clusters refused, nothing applied yet (no summary); then fixReport adds to it',
  async (t) => {
    const p = deepFreeze(plan());
    const drift: ClusterOutcome[] = [
      untouched(A),
      {
        ...untouched(B),
        failed: true,
        refused: ['drift: limits index settings changed'],
        actions: [{ status: 'refused', reason: 'the cluster drifted from the plan: nothing was changed here' }],
      },
    ];
    const pending = driftReport(p, drift);
    t.equal(pending.mode, 'fix');
    t.equal(pending.fix, undefined);
    t.equal(
      JSON.stringify(pending.clusters[1]!.checks[0]!.actions[0]),
      '{"type":"put-settings","method":"PUT","api_path":"/j/_settings","body":{},"status":"skipped","reason":"the cluster drifted from the plan: nothing was changed here"}',
    );
    t.same(planSize(pending), { actions: 4, hosts: 1, clusters: 1 }, 'only the clean cluster is left to apply');
    t.same(pending.clusters[0], p.clusters[0]);
    assertSchema(t, renderJson(pending));

    // applying the rest: the drifted cluster's actions count as skipped, its refusal stays
    const r = fixReport(pending, {
      interrupted: true,
      clusters: [
        {
          ...untouched(A),
          interrupted: true,
          actions: [
            { status: 'done', step: 1 },
            {
              status: 'skipped',
              cause: 'interrupted',
              step: 2,
              reason: 'interrupted: the run was stopped before this step',
            },
            {
              status: 'skipped',
              cause: 'interrupted',
              step: 3,
              reason: 'interrupted: the run was stopped before this step',
            },
            {
              status: 'skipped',
              cause: 'interrupted',
              step: 4,
              reason: 'interrupted: the run was stopped before this step',
            },
          ],
        },
        untouched(B),
      ],
    });
    t.same(r.fix, { done: 1, failed: 0, skipped: 4, interrupted: true });
    t.same(r.clusters[1]!.refused, ['drift: limits index settings changed']);
    assertSchema(t, renderJson(r));
  },
);

t.test('outcomes that do not fit the plan are a programming error, not a quiet report', async (t) => {
  const p = plan();
  t.throws(() => fixReport(p, { interrupted: false, clusters: [untouched(A)] }), /1 cluster outcomes for 2 clusters/);
  t.throws(
    () => fixReport(p, { interrupted: false, clusters: [untouched(B), untouched(A)] }),
    /outcome of https:\/\/10\.0\.1\.1:9200 given for cluster https:\/\/10\.0\.0\.1:9200/,
  );
  t.throws(
    () =>
      fixReport(p, {
        interrupted: false,
        clusters: [{ ...untouched(A), actions: [{ status: 'done', step: 1 }] }, untouched(B)],
      }),
    /1 outcomes for 4 planned actions/,
  );
});
