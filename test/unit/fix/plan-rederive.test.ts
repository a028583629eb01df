/** Pure parts of a reviewed plan: its exact shape, its digest, and every difference from the plan re-derived now. */
import t from 'tap';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { planProblems } from '../../../src/fix/plan-shape.ts';
import { planDigest, sameDigest } from '../../../src/fix/plan-digest.ts';
import { outsideSelection, planDifferences } from '../../../src/fix/drift.ts';
import { readPlan } from '../../../src/fix/plan-file.ts';
import { reviewedPlan } from '../../../src/fix/reviewed.ts';
import type { ClusterReport, Report } from '../../../src/model/index.ts';
import { SCHEMA_VERSION } from '../../../src/base/version.ts';

const cluster = (): ClusterReport => ({
  api_url: 'https://10.0.0.1:9200',
  name: 'c1',
  nodes: [{ host: 'm1', address: '10.0.0.1', name: 'm1', roles: ['cluster_manager', 'data'], reachable: true }],
  notes: [],
  pins: {
    nodes: [{ name: 'm1', ip: '10.0.0.1', roles: ['cluster_manager', 'data'] }],
    elected_manager: 'm1',
    cluster_settings: { persistent: {}, transient: {} },
    index_settings: null,
  },
  checks: [
    {
      id: 'master-plugins',
      order: 4,
      status: 'fail',
      reason: 'x',
      findings: [],
      actions: [
        {
          type: 'remove-plugin',
          host: 'm1',
          value: 'sm-x',
          command: 'bin/opensearch-plugin remove sm-x',
          status: 'planned',
        },
        {
          type: 'put-document',
          method: 'PUT',
          api_path: '/.sm_limits/_doc/base',
          body: { a: 1 },
          op_type: 'create',
          status: 'planned',
        },
        {
          type: 'set-yaml',
          host: 'm1',
          path: '/etc/o.yml',
          key: 'k',
          value: false,
          diff: '-k: true\n+k: false\n',
          base_sha256: 'a'.repeat(64),
          status: 'planned',
        },
      ],
    },
  ],
});

const report = (c: ClusterReport = cluster()): Report => ({
  schema_version: SCHEMA_VERSION,
  generated_at: new Date().toISOString(),
  tool: 'smdoctor',
  version: '0.3.0',
  mode: 'audit',
  clusters: [c],
  summary: { clusters: 1, hosts: 1, unreachable: 0, checks_failed: 1 },
});

t.test('shape: an unknown field, a missing pin, an unknown action type are each named by path', async (t) => {
  t.same(planProblems([cluster()]), []);
  const c = cluster() as unknown as { pins: Record<string, unknown>; checks: Array<{ actions: unknown[] }> };
  (c.checks[0]!.actions[0] as Record<string, unknown>).sudo = true;
  delete c.pins.elected_manager;
  c.checks[0]!.actions.push({ type: 'run-shell', command: 'id', status: 'planned' });
  (c.checks[0]!.actions[2] as Record<string, unknown>).host = 7;
  t.same(planProblems([c]), [
    'clusters[0].pins.elected_manager: missing',
    'clusters[0].checks[0].actions[0].sudo: unknown field of a remove-plugin action',
    'clusters[0].checks[0].actions[2].host: 7 is not a valid value',
    'clusters[0].checks[0].actions[3].type: "run-shell" is not an action smdoctor plans',
  ]);
  const noPins = cluster();
  delete noPins.pins;
  t.match(planProblems([noPins]), [/pins: missing/]);
});

t.test('readPlan refuses a malformed plan with exit 2 before anything else', async (t) => {
  const dir = t.testdir({});
  const bad = report();
  (bad.clusters[0]!.checks[0]!.actions[1] as unknown as Record<string, unknown>).refresh = 'true';
  const file = join(dir, 'plan.json');
  await writeFile(file, JSON.stringify(bad));
  await t.rejects(readPlan(file, 3_600_000, Date.now()), {
    name: 'InputError',
    message:
      /plan\.json: not a plan smdoctor audit wrote \(1 problem\): clusters\[0\]\.checks\[0\]\.actions\[1\]\.refresh: unknown field/,
  });
});

t.test('the digest covers actions and pins, not the time; given with or without its prefix', async (t) => {
  const d = planDigest(report());
  t.match(d, /^sha256:[0-9a-f]{64}$/);
  t.equal(
    planDigest({ ...report(), generated_at: '2001-01-01T00:00:00Z' } as Report),
    d,
    'generated_at is not approved',
  );
  const c = cluster();
  (c.checks[0]!.actions[0] as { command: string }).command = 'touch /tmp/x; bin/opensearch-plugin remove sm-x';
  t.not(planDigest(report(c)), d);
  const p = cluster();
  p.pins!.elected_manager = null;
  t.not(planDigest(report(p)), d);
  t.ok(sameDigest(d.slice(7).toUpperCase(), d));
  t.notOk(sameDigest('sha256:00', d));
});

t.test('every field that differs from the plan derived now is named: planned vs now', async (t) => {
  t.same(planDifferences(cluster(), cluster()), []);
  const file = cluster();
  const [rm, doc, edit] = file.checks[0]!.actions as unknown as Array<Record<string, unknown>>;
  rm!.command = `touch /tmp/PWNED; ${String(rm!.command)}`;
  (doc!.body as Record<string, unknown>).extra = 1;
  delete edit!.base_sha256;
  t.same(planDifferences(file, cluster()), [
    'action 1 (remove-plugin on m1): command planned "touch /tmp/PWNED; bin/opensearch-plugin remove sm-x", now "bin/opensearch-plugin remove sm-x"',
    'action 2 (put-document /.sm_limits/_doc/base): body planned {"a":1,"extra":1}, now {"a":1}',
    'action 3 (set-yaml on m1 /etc/o.yml): base_sha256 planned absent, now aaaaaaaaaaaa…',
  ]);
  const fewer = cluster();
  fewer.checks[0]!.actions.pop();
  t.same(planDifferences(cluster(), fewer), [
    'action 3 (set-yaml on m1 /etc/o.yml): planned, but the audit now plans nothing there',
  ]);
  t.same(planDifferences(fewer, cluster()), [
    'action 3 (set-yaml on m1 /etc/o.yml): not in the plan, but the audit now plans it',
  ]);
  const inserted = cluster();
  inserted.checks[0]!.actions.splice(1, 0, {
    type: 'verify-shards',
    method: 'GET',
    api_path: '/_cat/shards',
    status: 'planned',
  });
  t.same(
    planDifferences(inserted, cluster()),
    ['action 2 (verify-shards /_cat/shards): planned, but the audit now plans nothing there'],
    'one added action is named alone, not every action after it',
  );
  t.same(planDifferences(cluster(), undefined), ['the audit now finds no cluster at https://10.0.0.1:9200']);
});

t.test(
  'a refused cluster keeps the file actions, all refused; an equal one runs the actions derived now',
  async (t) => {
    const tampered = cluster();
    (tampered.checks[0]!.actions[0] as { command: string }).command = 'rm -rf /';
    const r = reviewedPlan(report(tampered), report());
    t.equal(r.refused, 1);
    t.match(r.plan.clusters[0]!.refused, [/^drift: action 1 \(remove-plugin on m1\): command planned "rm -rf \/"/]);
    t.ok(r.plan.clusters[0]!.checks[0]!.actions.every((a) => a.status === 'skipped'));
    const now = report();
    now.clusters[0]!.notes = [{ kind: 'note', message: 'seen now' }];
    const same = reviewedPlan(report(), now);
    t.equal(same.refused, 0);
    t.same(same.plan.clusters[0]!.notes, now.clusters[0]!.notes, 'the re-derived cluster, not the file');
    t.notOk(same.plan.clusters[0]!.refused, 'not refused');
  },
);

t.test('a plan naming a host or cluster outside the selection is named before anything is read', async (t) => {
  t.same(outsideSelection(report(), [{ apiUrl: 'https://10.0.0.1:9200', hosts: ['m1'] }]), []);
  t.same(outsideSelection(report(), [{ apiUrl: 'https://10.0.0.1:9200', hosts: ['m2'] }]), [
    'action 1 (remove-plugin on m1): host m1 is not a selected host of https://10.0.0.1:9200',
    'action 3 (set-yaml on m1 /etc/o.yml): host m1 is not a selected host of https://10.0.0.1:9200',
  ]);
  t.same(outsideSelection(report(), []), ['cluster https://10.0.0.1:9200 has no selected inventory host']);
});

t.test("shape: a missing field, a value of another form, a status of none: the model's action fields", async (t) => {
  const c = cluster() as unknown as { checks: Array<{ actions: Array<Record<string, unknown>> }> };
  const [a, , y] = c.checks[0]!.actions;
  delete a!.command;
  a!.status = 'maybe';
  y!.base_sha256 = 'not a digest';
  t.same(planProblems([c]), [
    'clusters[0].checks[0].actions[0].command: missing from a remove-plugin action',
    'clusters[0].checks[0].actions[0].status: "maybe" is not a valid value',
    'clusters[0].checks[0].actions[2].base_sha256: "not a digest" is not a valid value',
  ]);
});
