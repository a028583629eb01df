/** Judging pack checks over hand-built facts: every matcher, same_on_nodes, errors never failures, scope, secrets. */
import t from 'tap';
import { judgeCheck } from '../../../src/packs/index.ts';
import type { PackMatcher, PackSource } from '../../../src/model/pack.ts';
import { check, cluster, type NodeSpec } from '../../helpers/packs/facts.ts';

const now = new Date('2026-11-27T00:00:00Z');
const judge = (c: ReturnType<typeof check>, nodes: NodeSpec[], api = {}) =>
  judgeCheck(c, cluster(nodes, api), 6, { now });
const setting = (key: string): PackSource => ({ kind: 'setting', key });

t.test('each matcher over one node: holds or fails', async (t) => {
  const cases: Array<[string, string, PackSource, PackMatcher, 'pass' | 'fail']> = [
    [
      'equals, "true" is true',
      'bootstrap.memory_lock: "true"',
      setting('bootstrap.memory_lock'),
      { kind: 'equals', value: true },
      'pass',
    ],
    [
      'equals, nested key',
      'bootstrap:\n  memory_lock: false',
      setting('bootstrap.memory_lock'),
      { kind: 'equals', value: true },
      'fail',
    ],
    ['not_equals', 'a.b: x', setting('a.b'), { kind: 'not_equals', value: 'x' }, 'fail'],
    ['one_of', 'a.b: x', setting('a.b'), { kind: 'one_of', values: ['x', 'y'] }, 'pass'],
    ['not_one_of', 'a.b: x', setting('a.b'), { kind: 'not_one_of', values: ['x', 'y'] }, 'fail'],
    ['present true, absent', 'a.b: x', setting('c.d'), { kind: 'present', value: true }, 'fail'],
    ['present false, absent', 'a.b: x', setting('c.d'), { kind: 'present', value: false }, 'pass'],
    ['matches', 'cluster.name: prod-eu', setting('cluster.name'), { kind: 'matches', regex: '^prod-' }, 'pass'],
    ['matches fails', 'cluster.name: test', setting('cluster.name'), { kind: 'matches', regex: '^prod-' }, 'fail'],
    ['at_least with a size', 'x.y: 512mb', setting('x.y'), { kind: 'at_least', value: 1024 ** 3 }, 'fail'],
    ['at_most', 'x.y: 3', setting('x.y'), { kind: 'at_most', value: 5 }, 'pass'],
    [
      'a list: scalar matcher on every element',
      'd.s: [a1, b2]',
      setting('d.s'),
      { kind: 'matches', regex: '^a' },
      'fail',
    ],
  ];
  for (const [name, yml, read, m, want] of cases) {
    const r = judge(check(read, [m]), [{ name: 'n1', yml }]);
    t.equal(r.status, want, name);
    if (want === 'fail') t.equal(r.findings[0]?.host, 'n1', `${name}: the node is named`);
  }
});

t.test('lists: plugins and keystore names', async (t) => {
  const nodes: NodeSpec[] = [
    {
      name: 'n1',
      plugins: [{ name: 'repository-s3', engineVersion: '2.11.1' }],
      keystore: ['s3.client.default.secret_key'],
    },
  ];
  const cases: Array<[PackSource, PackMatcher, string]> = [
    [{ kind: 'plugins' }, { kind: 'contains', value: 'repository-s3' }, 'pass'],
    [{ kind: 'plugins' }, { kind: 'not_contains', value: 'repository-s3' }, 'fail'],
    [{ kind: 'plugins' }, { kind: 'contains_none_of', values: ['a', 'repository-s3'] }, 'fail'],
    [{ kind: 'keystore' }, { kind: 'contains', value: 'bootstrap.password' }, 'fail'],
    [{ kind: 'plugins' }, { kind: 'plugin_versions_match_engine' }, 'pass'],
  ];
  for (const [read, m, want] of cases) t.equal(judge(check(read, [m]), nodes).status, want, `${read.kind} ${m.kind}`);
  const old = judge(check({ kind: 'plugins' }, [{ kind: 'plugin_versions_match_engine' }]), nodes, {
    version: '2.12.0',
  });
  t.equal(old.status, 'fail');
  t.match(old.findings[0]!.message, /repository-s3 is built for "2.11.1"; the engine runs 2.12.0/);
});

t.test('a value that cannot be read is an error for that node, never a failure', async (t) => {
  const cases: Array<[string, NodeSpec]> = [
    ['unreachable', { name: 'n1', reachable: false }],
    ['a ${VAR} placeholder', { name: 'n1', yml: 'path.data: ${DATA_DIR}' }],
    ['the keystore not listed', { name: 'n1', yml: 'a: 1', keystore: null }],
  ];
  for (const [name, node] of cases) {
    const read = name.includes('keystore') ? ({ kind: 'keystore' } as const) : setting('path.data');
    const r = judge(check(read, [{ kind: 'equals', value: '/data' }]), [node]);
    t.equal(r.status, 'error', name);
    t.equal(r.findings[0]?.kind, 'unverified', `${name}: reported as unverified`);
  }
  const resolved = judge(check(setting('path.data'), [{ kind: 'equals', value: '/data' }]), [
    { name: 'n1', yml: 'path.data: ${DATA_DIR}', env: { DATA_DIR: '/data' } },
    { name: 'n2', yml: 'path.data: ${DATA_DIR:/data}', env: {} },
    { name: 'n3', yml: 'path.data: ${DATA_DIR}', env: { DATA_DIR: '/srv' } },
  ]);
  t.equal(resolved.status, 'fail', 'placeholders resolved from the engine environment, as the engine does');
  t.same(
    resolved.findings.filter((f) => (f.kind ?? 'problem') === 'problem').map((f) => f.host),
    ['n3'],
  );
  const mixed = judge(check(setting('a'), [{ kind: 'equals', value: 1 }]), [
    { name: 'n1', yml: 'a: 2' },
    { name: 'n2', reachable: false },
  ]);
  t.equal(mixed.status, 'fail', 'a failure elsewhere still fails the check');
  t.match(mixed.reason, /not decided: n2/);
});

t.test('same_on_nodes names the odd ones out, per cluster, over the nodes in scope', async (t) => {
  const heap = (name: string, v: string, roles = ['data']): NodeSpec => ({ name, roles, yml: `x.heap: ${v}` });
  const r = judge(check(setting('x.heap'), [{ kind: 'same_on_nodes' }]), [
    heap('d1', '4g'),
    heap('d2', '4g'),
    heap('d3', '8g'),
  ]);
  t.equal(r.status, 'fail');
  t.same(
    r.findings.map((f) => f.host),
    ['d3'],
  );
  t.match(r.findings[0]!.message, /"8g" here, "4g" on d1, d2/);
  const tie = judge(check(setting('x.heap'), [{ kind: 'same_on_nodes' }]), [heap('d1', '4g'), heap('d2', '8g')]);
  t.same(tie.findings.map((f) => f.host).sort(), ['d1', 'd2'], 'a tie names every node');
  const scoped = judge(check(setting('x.heap'), [{ kind: 'same_on_nodes' }], { scope: { roles: ['data'] } }), [
    heap('d1', '4g'),
    heap('d2', '4g'),
    heap('m1', '1g', ['cluster_manager']),
  ]);
  t.equal(scoped.status, 'pass', 'a manager out of scope is not compared');
});

t.test('scope: roles, groups, a semver range over the engine version', async (t) => {
  const nodes: NodeSpec[] = [
    { name: 'd1', roles: ['data'], yml: 'a: 1', groups: ['search'] },
    { name: 'm1', roles: ['cluster_manager'], yml: 'a: 2', groups: ['managers'] },
  ];
  const eq = [{ kind: 'equals', value: 1 } as const];
  t.equal(judge(check(setting('a'), eq, { scope: { roles: ['data'] } }), nodes).status, 'pass');
  t.equal(judge(check(setting('a'), eq, { scope: { groups: ['managers'] } }), nodes).status, 'fail');
  t.equal(judge(check(setting('a'), eq, { scope: { engine: '>=3.0.0' } }), nodes).status, 'skip');
  t.equal(judge(check(setting('a'), eq, { scope: { engine: '>=2.0.0 <3.0.0' } }), nodes).status, 'fail');
  t.equal(
    judge(check(setting('a'), eq, { scope: { engine: '>=2.0.0' } }), nodes, { version: undefined }).status,
    'error',
  );
  t.equal(judge(check(setting('a'), eq, { scope: { roles: ['ml'] } }), nodes).status, 'skip', 'no node in scope');
});

t.test('secret-named settings: the value never reaches a finding', async (t) => {
  const r = judge(check(setting('plugins.security.ssl.http.pemkey_password'), [{ kind: 'equals', value: 'x' }]), [
    { name: 'n1', yml: 'plugins.security.ssl.http.pemkey_password: hunter2-very-secret' },
  ]);
  t.equal(r.status, 'fail');
  t.notMatch(JSON.stringify(r), /hunter2/);
});

t.test('api sources: a pick from a GET, each cluster', async (t) => {
  const body = { persistent: { 'cluster.routing.allocation.enable': 'primaries' } };
  const c = check({ kind: 'api', path: '_cluster/settings', pick: 'persistent' }, [{ kind: 'present', value: true }], {
    each: 'cluster',
  });
  t.equal(
    judge(c, [{ name: 'n1' }], { packReads: { _cluster_settings: { statusCode: 200, body } } }).status,
    'error',
    'not read',
  );
  t.equal(judge(c, [{ name: 'n1' }], { packReads: { '_cluster/settings': { statusCode: 200, body } } }).status, 'pass');
  t.equal(
    judge(c, [{ name: 'n1' }], { packReads: { '_cluster/settings': { statusCode: 403, body: {} } } }).status,
    'error',
  );
  const list = check({ kind: 'api', path: '_cat/indices', pick: '*.health' }, [{ kind: 'equals', value: 'green' }], {
    each: 'cluster',
  });
  const answer = { statusCode: 200, body: [{ health: 'green' }, { health: 'yellow' }] };
  const r = judge(list, [{ name: 'n1' }], { packReads: { '_cat/indices': answer } });
  t.equal(r.status, 'fail');
  t.match(r.findings[0]!.message, /cluster prod: api _cat\/indices pick \*\.health is "yellow", not "green"/);
});

t.test('pick: dotted paths, * over lists and objects, flat keys with dots', async (t) => {
  const { pick } = await import('../../../src/packs/index.ts');
  const body = { persistent: { 'action.destructive_requires_name': 'false' }, a: [{ b: 1 }, { c: 2 }, { b: 3 }] };
  t.equal(pick(body, 'persistent.action.destructive_requires_name'), 'false');
  t.same(pick(body, 'a.*.b'), [1, 3], 'missing picks dropped');
  t.equal(pick(body, 'a.0.b'), 1);
  t.same(pick({ i1: { s: 'x' }, i2: { s: 'y' } }, '*.s'), ['x', 'y']);
  t.equal(pick(body, 'nope.x'), undefined);
});
