/** merge: shard reports as one report (order, summary), and every reason they cannot be one, named. */
import t from 'tap';
import { SCHEMA_VERSION } from '../../../src/base/version.ts';
import { mergeReports, mergeProblems, type MergeInput } from '../../../src/report/merge.ts';
import type { ClusterReport, Report } from '../../../src/model/index.ts';
import { assertSchema } from '../../helpers/schema.ts';

const cluster = (url: string, status: 'pass' | 'fail' = 'pass', checks = ['base-limit-document']): ClusterReport => ({
  api_url: url,
  name: url,
  nodes: [{ host: `${url}-h`, address: '10.0.0.1', name: 'n', roles: ['data'], reachable: true }],
  notes: [],
  checks: checks.map((id, i) => ({
    id: id as 'base-limit-document',
    order: i + 1,
    status,
    reason: 'r',
    findings: [],
    actions: [],
  })),
});

const report = (clusters: ClusterReport[], extra: Partial<Report> = {}): Report => ({
  schema_version: SCHEMA_VERSION,
  generated_at: '2026-11-27T10:00:00.000Z',
  tool: 'smdoctor',
  version: '0.4.0',
  mode: 'audit',
  clusters,
  summary: { clusters: clusters.length, hosts: clusters.length, unreachable: 0, checks_failed: 0 },
  ...extra,
});

const shard = (index: number, count: number, positions: number[]) => ({ shard: { index, count, positions } });
const input = (file: string, r: Report): MergeInput => ({ file, report: r });

t.test('shards merge in the inventory order, with the summary of one run', async (t) => {
  const a = report([cluster('u0'), cluster('u3', 'fail')], {
    ...shard(0, 2, [0, 3]),
    generated_at: '2026-11-27T10:00:02.000Z',
  });
  const down = cluster('u2');
  down.nodes.push({ host: 'u2-h2', address: '10.0.0.2', name: null, roles: [], reachable: false });
  // a summary that says otherwise than its clusters: hosts and unreachable are counted again, not summed
  const b = report([cluster('u1'), down], {
    ...shard(1, 2, [1, 2]),
    summary: { clusters: 2, hosts: 50, unreachable: 9, checks_failed: 0 },
  });
  const m = mergeReports([input('a.json', a), input('b.json', b)]);
  t.same(
    m.clusters.map((c) => c.api_url),
    ['u0', 'u1', 'u2', 'u3'],
  );
  t.same(m.summary, { clusters: 4, hosts: 5, unreachable: 1, checks_failed: 1 });
  t.equal(m.generated_at, '2026-11-27T10:00:00.000Z', 'the earliest start');
  t.notOk('shard' in m, 'the merged report is no shard');
  assertSchema(t, m);
});

t.test('an empty shard (more shards than clusters) merges and does not disagree on checks', async (t) => {
  const a = report([cluster('u0', 'pass', ['base-limit-document', 'dashboards-hosts'])], shard(0, 2, [0]));
  const b = report([], { ...shard(1, 2, []), summary: { clusters: 0, hosts: 0, unreachable: 0, checks_failed: 0 } });
  t.equal(mergeReports([input('a', a), input('b', b)]).clusters.length, 1);
});

t.test('reports without shards merge in the order given', async (t) => {
  const m = mergeReports([input('x', report([cluster('z')])), input('y', report([cluster('a')]))]);
  t.same(
    m.clusters.map((c) => c.api_url),
    ['z', 'a'],
  );
});

t.test('every problem is refused, naming the files', async (t) => {
  const cases: Array<[string, MergeInput[], RegExp]> = [
    ['nothing', [], /no reports to merge/],
    ['a fix report', [input('f.json', report([cluster('u')], { mode: 'fix' }))], /f\.json: a fix report; only audit/],
    [
      'schema versions',
      [
        input('a', report([cluster('u0')])),
        input('b', report([cluster('u1')], { schema_version: SCHEMA_VERSION + 1 })),
      ],
      new RegExp(`b: schema_version ${SCHEMA_VERSION + 1}, but a has ${SCHEMA_VERSION}`),
    ],
    [
      'check sets',
      [input('a', report([cluster('u0')])), input('b', report([cluster('u1', 'pass', ['master-plugins'])]))],
      /b: checks master-plugins, but a has base-limit-document/,
    ],
    [
      'overlapping clusters',
      [input('a', report([cluster('u0')])), input('b', report([cluster('u0')]))],
      /b: cluster u0 is also in a/,
    ],
    [
      'a missing shard',
      [input('a', report([cluster('u0')], shard(0, 3, [0]))), input('c', report([cluster('u2')], shard(2, 3, [2])))],
      /shards? 1\/3 missing/,
    ],
    [
      'a shard twice',
      [input('a', report([cluster('u0')], shard(0, 2, [0]))), input('b', report([cluster('u1')], shard(0, 2, [1])))],
      /b: shard 0\/2 is also a/,
    ],
    [
      'shards of different N',
      [input('a', report([cluster('u0')], shard(0, 2, [0]))), input('b', report([cluster('u1')], shard(1, 3, [1])))],
      /b: shard 1\/3, but a is one of 2/,
    ],
    [
      'shard and whole run mixed',
      [input('a', report([cluster('u0')], shard(0, 1, [0]))), input('b', report([cluster('u1')]))],
      /b: not a shard report, but others are/,
    ],
    [
      'positions that do not fit',
      [input('a', report([cluster('u0'), cluster('u1')], shard(0, 1, [0])))],
      /a: shard.positions does not give one place/,
    ],
  ];
  for (const [name, inputs, want] of cases) {
    t.match(mergeProblems(inputs).join('\n'), want, name);
    t.throws(() => mergeReports(inputs), { name: 'UsageError' }, `${name}: exit 2`);
  }
});

t.test('several problems are all listed at once', async (t) => {
  const p = mergeProblems([
    input('a', report([cluster('u0')])),
    input('b', report([cluster('u0', 'pass', ['master-plugins'])], { schema_version: 1 })),
  ]);
  t.equal(p.length, 3, p.join('\n'));
});

t.test('a shard K of N with K ≥ N, and shards audited with different --check, are refused', async (t) => {
  const bad = mergeProblems([input('a', report([cluster('u0')], shard(7, 2, [0])))]);
  t.match(bad.join('\n'), /a: shard 7\/2 is not a shard K of N/);
  const picked = (url: string, only: boolean): ClusterReport => {
    const c = cluster(url, 'pass', ['base-limit-document', 'dashboards-hosts']);
    if (only) c.checks[1] = { ...c.checks[1]!, status: 'skip', reason: 'not selected (--check base-limit-document)' };
    return c;
  };
  const problems = mergeProblems([
    input('a', report([picked('u0', false)], shard(0, 2, [0]))),
    input('b', report([picked('u1', true)], shard(1, 2, [1]))),
  ]);
  t.match(problems.join('\n'), /b: checks base-limit-document, but a has base-limit-document,dashboards-hosts/);
});

t.test('merge --severity: the shards’ own level decides the exit code, as each shard’s audit did', async (t) => {
  const { runCli } = await import('../../helpers/cli.ts');
  const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = await mkdtemp(join(tmpdir(), 'merge-sev-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const warned = cluster('u0', 'fail');
  warned.checks[0] = { ...warned.checks[0]!, severity: 'low' };
  await writeFile(join(dir, 'a.json'), JSON.stringify(report([warned], shard(0, 2, [0]))));
  await writeFile(join(dir, 'b.json'), JSON.stringify(report([cluster('u1')], shard(1, 2, [1]))));
  const plain = await runCli(['merge', 'a.json', 'b.json', '--format', 'json'], { cwd: dir });
  t.equal(plain.code, 1, plain.err);
  const critical = await runCli(['merge', 'a.json', 'b.json', '--format', 'json', '--severity', 'critical'], {
    cwd: dir,
  });
  t.equal(critical.code, 0, 'a low check does not count under --severity critical');
  const bad = await runCli(['merge', 'a.json', 'b.json', '--severity', 'loud'], { cwd: dir });
  t.equal(bad.code, 2);
});
