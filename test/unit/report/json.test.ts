import t from 'tap';
import { renderReport } from '../../../src/report/render.ts';
import { sample } from '../../helpers/report/sample.ts';
import { assertSchema, schemaErrors } from '../../helpers/schema.ts';

t.test("json is PRODUCT.md's report shape, key order included", async (t) => {
  const out = renderReport(sample(), 'json');
  const doc = JSON.parse(out);
  t.same(Object.keys(doc), ['tool', 'version', 'mode', 'clusters', 'summary']);
  t.same(Object.keys(doc.clusters[0]), ['api_url', 'name', 'nodes', 'checks', 'notes']);
  t.match(doc, {
    tool: 'smdoctor',
    version: String,
    mode: 'audit',
    clusters: [
      {
        api_url: 'https://10.0.0.1:9200',
        name: String,
        nodes: [{ host: 'm1', address: '10.0.0.1', name: 'm1', roles: ['cluster_manager'], reachable: true }],
        checks: [
          { id: 'base-limit-document', order: 1, status: 'pass' },
          {
            id: 'master-node-with-sme',
            order: 2,
            status: 'fail',
            findings: [{ host: 'm1', message: String, evidence: {} }],
            actions: [
              {
                type: 'set-yaml',
                host: 'm1',
                path: '/app/opensearch/config/opensearch.yml',
                key: 'node.attr.node_with_sme',
                value: false,
                diff: /^--- /,
                status: 'planned',
              },
            ],
          },
        ],
      },
    ],
    summary: { clusters: 2, hosts: 3, unreachable: 1, checks_failed: 2 },
  });
});

t.test('no secret survives, in any format', async (t) => {
  for (const f of ['json', 'text', 'junit', 'markdown'] as const) {
    const out = renderReport(sample(), f);
    t.notMatch(out, 'hunter2', f);
    const kept = 'keystore_password: ********';
    t.match(out, kept, `${f}: the line is kept, the value is not`);
  }
  t.match(sample().clusters[0]!.checks[1]!.actions[0]!.diff, 'hunter2', 'the report itself is not mutated');
});

t.test('the report matches the published schema, which refuses what is not a report', async (t) => {
  const out = renderReport(sample(), 'json');
  assertSchema(t, out);
  const fixed = sample();
  fixed.mode = 'fix';
  fixed.schema_version = 3;
  fixed.generated_at = '2026-01-01T00:00:00.000Z';
  fixed.clusters[0]!.refused = ['pre-flight: health is red'];
  fixed.clusters[0]!.after = { checks: [{ id: 'base-limit-document', status: 'pass', reason: 'ok' }] };
  fixed.fix = { done: 1, failed: 1, skipped: 2, interrupted: false };
  assertSchema(t, renderReport(fixed, 'json'), 'a fix report too');
  const doc = JSON.parse(out);
  // an action of one kind with the fields of another, an unknown check, a missing summary
  doc.clusters[0].checks[1].actions[0].type = 'set-hosts';
  t.match(schemaErrors(doc).join('\n'), /actions\/0\/value must be array/);
  t.match(schemaErrors({ ...JSON.parse(out), summary: undefined }).join('\n'), /summary/);
  const wrongId = JSON.parse(out);
  wrongId.clusters[0].checks[0].id = 'no-such-check';
  t.not(schemaErrors(wrongId).length, 0);
});
