import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario, scenarioNames } from '../../src/scenario.ts';
import { parseScenario } from '../../src/scenario-parse.ts';
import { fleetScenario } from '../../src/fleet.ts';
import { CHECK_IDS } from '../../../src/model/index.ts';
import { InputError } from '../../../src/base/errors.ts';
import type { Scenario } from '../../src/model.ts';

/** Every leaf path where two values differ (ignoring name/description). */
function diffPaths(a: unknown, b: unknown, path = ''): string[] {
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].flatMap((k) =>
      diffPaths((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k),
    );
  }
  return a === b ? [] : [path];
}
const body = (s: Scenario) => ({ ...s, name: undefined, description: undefined });

t.test('every shipped scenario loads, and the default topology is as documented', async (t) => {
  t.same(scenarioNames(), [
    'base-limit-document',
    'broken',
    'dashboards-hosts',
    'fleet',
    'fleet-drift',
    'healthy',
    'limits-alias',
    'limits-index-replicas',
    'master-node-with-sme',
    'master-plugins',
    'pack-drift',
    'packages',
    'placeholders',
    'rolling',
  ]);
  for (const n of scenarioNames()) t.equal(loadScenario(n).name, n);
  const h = loadScenario('healthy');
  t.same(
    h.nodes.map((n) => n.name),
    ['m1', 'm2', 'm3', 'd1', 'd2', 'd3'],
  );
  t.same(h.dashboards, [{ name: 'web1', hosts: ['d1', 'd2', 'd3'] }]);
  t.same(new Set(h.nodes.map((n) => n.yml_style)), new Set(['flat', 'nested']), 'both YAML styles are used');
  for (const d of h.nodes.filter((n) => n.roles.includes('data'))) {
    t.match(d, {
      attrs: { node_with_sme: true },
      keystore: ['jobscheduler.email.pass'],
      plugins: [
        'sme-re',
        'sm-job-scheduler',
        'sm-sigma',
        'sm-job-scheduler-actions-incident',
        'sm-job-scheduler-actions-mitre',
      ],
    });
  }
  const limits = h.indices.find((i) => i.name === '.sm_sme_limits_user')!;
  t.match(limits, {
    settings: { index: { auto_expand_replicas: '0-all' } },
    docs: { base_limit: { max_qsize: 200000, allowed_commands: ['*'], _meta: { id: 'base_limit' } } },
  });
  for (const i of ['.sm_jsc_jobs', '.sm_dashboards', '.sm_sme_macros', 'logs-2024.01', 'logs-2024.02'])
    t.ok(
      h.indices.some((x) => x.name === i),
      i,
    );
});

const expected: Record<string, string[]> = {
  'base-limit-document': ['indices.0.docs'],
  'master-node-with-sme': ['nodes.0.attrs.node_with_sme'],
  'dashboards-hosts': ['dashboards.0.hosts.2'],
  'master-plugins': ['nodes.1.plugins', 'nodes.1.keystore'],
  'limits-index-replicas': ['indices.0.settings.index.auto_expand_replicas'],
};

t.test('each check scenario differs from healthy in exactly its cause; broken in all five', async (t) => {
  const healthy = body(loadScenario('healthy'));
  for (const id of CHECK_IDS) {
    const paths = diffPaths(healthy, body(loadScenario(id)));
    t.same(
      paths.map((p) => expected[id]!.find((e) => p.startsWith(e))).filter(Boolean).length,
      paths.length,
      `${id}: ${paths.join(', ')}`,
    );
    t.ok(paths.length > 0, `${id} differs`);
  }
  const broken = diffPaths(healthy, body(loadScenario('broken')));
  for (const id of CHECK_IDS)
    t.ok(
      broken.some((p) => expected[id]!.some((e) => p.startsWith(e))),
      `broken has ${id}`,
    );
  t.ok(
    broken.every((p) =>
      Object.values(expected)
        .flat()
        .some((e) => p.startsWith(e)),
    ),
    'broken has nothing else',
  );
  t.match(loadScenario('broken').nodes[1], {
    name: 'm2',
    roles: ['cluster_manager'],
    plugins: ['sm-job-scheduler'],
    keystore: ['jobscheduler.email.pass'],
  });
});

t.test('bad scenario files give InputError with file:line', async (t) => {
  const dir = t.testdir({
    'syntax.yml': 'name: x\nnodes:\n  - name: a\n   roles: [data\n',
    'dup.yml': 'name: x\nname: y\nnodes: []\nindices: []\n',
    'shape.yml': 'name: x\nnodes:\n  - name: a\n    roles: data\nindices: []\n',
    'twice.yml':
      'name: x\nnodes:\n  - { name: a, roles: [data] }\ndashboards:\n  - { name: a, hosts: a }\nindices: []\n',
    'alias.yml':
      'name: x\nnodes:\n  - { name: a, roles: [data] }\nindices:\n  - name: a\n  - name: b\n    aliases: [a]\n',
    'access.yml': 'name: x\napi_access: write\nnodes:\n  - { name: a, roles: [data] }\nindices: []\n',
  });
  const cases: Array<[string, number, RegExp]> = [
    ['syntax.yml', 4, /YAML/],
    ['dup.yml', 2, /YAML/],
    ['shape.yml', 4, /roles must be a list/],
    ['twice.yml', 5, /used twice/],
    ['alias.yml', 7, /an alias cannot have the name of an index/],
    ['access.yml', 2, /api_access must be "read" \(the API user can read but not write\) or "all"/],
  ];
  for (const [f, line, msg] of cases) {
    const err = (() => {
      try {
        loadScenario(join(dir, f));
        return null;
      } catch (e) {
        return e;
      }
    })();
    t.type(err, InputError, f);
    t.match(err, { message: msg, pos: { file: join(dir, f), line } }, f);
  }
  t.throws(() => loadScenario('no-such-scenario'), InputError);
  t.throws(() => parseScenario('[1, 2]', 'x.yml'), InputError);
});

t.test('a scenario file path works', async (t) => {
  const dir = t.testdir({});
  const f = join(dir, 'mine.yml');
  writeFileSync(f, 'name: mine\nnodes:\n  - name: solo\n    roles: [cluster_manager, data]\nindices: []\n');
  t.match(loadScenario(f), { name: 'mine', nodes: [{ name: 'solo' }] });
});

t.test('fleet scenario: clusters × nodes, first healthy, the others one cause each', async (t) => {
  const f = fleetScenario(3, 3);
  t.equal(f.clusters!.length, 3);
  t.same(
    f.clusters!.map((c) => c.nodes.map((n) => n.name)),
    [
      ['c1-m1', 'c1-d1', 'c1-d2'],
      ['c2-m1', 'c2-d1', 'c2-d2'],
      ['c3-m1', 'c3-d1', 'c3-d2'],
    ],
  );
  t.match(
    f.clusters![1]!.indices.find((i) => i.name === '.sm_sme_limits_user'),
    { docs: {} },
  );
  t.notOk(
    f.clusters![1]!.indices.find((i) => i.name === '.sm_sme_limits_user')!.docs!.base_limit,
    'cluster 2 lacks base_limit',
  );
  t.ok(f.clusters![0]!.indices.find((i) => i.name === '.sm_sme_limits_user')!.docs!.base_limit, 'cluster 1 healthy');
  t.match(f.clusters![2]!.nodes[0], { attrs: { node_with_sme: true } });
  t.same(fleetScenario(1, 6).clusters![0]!.nodes.filter((n) => n.roles.includes('cluster_manager')).length, 3);
  t.equal(loadScenario('fleet', { SMDOCTOR_LAB_CLUSTERS: '4', SMDOCTOR_LAB_NODES: '2' }).clusters!.length, 4);
  t.equal(loadScenario('fleet', {}).nodes.length, 6);
  t.throws(() => loadScenario('fleet', { SMDOCTOR_LAB_CLUSTERS: 'x' }), InputError);
  t.throws(() => fleetScenario(1, 1), InputError);
});
