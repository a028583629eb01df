/** The absent and empty rules, matcher by matcher (docs/packs.md's table), and what a pick that finds nothing is. */
import t from 'tap';
import { judgeCheck } from '../../../src/packs/index.ts';
import { MATCHER_KINDS } from '../../../src/packs/matchers/registry.ts';
import type { PackMatcher, PackMatcherKind, PackSource } from '../../../src/model/pack.ts';
import { check, cluster, type NodeSpec } from '../../helpers/packs/facts.ts';

const now = new Date('2026-11-27T00:00:00Z');
const judge = (c: ReturnType<typeof check>, nodes: NodeSpec[], api = {}) =>
  judgeCheck(c, cluster(nodes, api), 6, { now });
const unset: PackSource = { kind: 'setting', key: 'not.set' };

// every matcher of the registry: the matcher, and its status over an unset setting (absent)
const ABSENT: Record<PackMatcherKind, [PackMatcher, 'pass' | 'fail' | 'error']> = {
  equals: [{ kind: 'equals', value: null }, 'fail'],
  not_equals: [{ kind: 'not_equals', value: null }, 'pass'],
  one_of: [{ kind: 'one_of', values: [null, 'x'] }, 'fail'],
  not_one_of: [{ kind: 'not_one_of', values: ['x'] }, 'pass'],
  present: [{ kind: 'present', value: true }, 'fail'],
  matches: [{ kind: 'matches', regex: '.*' }, 'fail'],
  not_matches: [{ kind: 'not_matches', regex: 'x' }, 'pass'],
  at_least: [{ kind: 'at_least', value: 0 }, 'fail'],
  at_most: [{ kind: 'at_most', value: 10 }, 'fail'],
  at_most_of_memory: [{ kind: 'at_most_of_memory', fraction: 0.5 }, 'fail'],
  contains: [{ kind: 'contains', value: 'x' }, 'fail'],
  not_contains: [{ kind: 'not_contains', value: 'x' }, 'pass'],
  contains_none_of: [{ kind: 'contains_none_of', values: ['x'] }, 'pass'],
  contains_all: [{ kind: 'contains_all', values: ['x'] }, 'fail'],
  length: [{ kind: 'length', atMost: 3 }, 'fail'],
  empty: [{ kind: 'empty', value: true }, 'pass'],
  same_as: [{ kind: 'same_as', source: { kind: 'setting', key: 'also.not.set' } }, 'fail'],
  same_on_nodes: [{ kind: 'same_on_nodes' }, 'pass'],
  not_newer_than: [{ kind: 'not_newer_than', source: { kind: 'setting', key: 'a' } }, 'pass'],
  plugin_versions_match_engine: [{ kind: 'plugin_versions_match_engine' }, 'error'],
  seeds_are_cluster_managers: [{ kind: 'seeds_are_cluster_managers' }, 'fail'],
  below_high_watermark: [{ kind: 'below_high_watermark' }, 'error'],
};

t.test('an absent value: fails what asks for something, holds for what asks for its absence', async (t) => {
  t.same(Object.keys(ABSENT).sort(), [...MATCHER_KINDS].sort(), 'every matcher of the registry is in the table');
  const nodes: NodeSpec[] = [{ name: 'n1', yml: 'a: 1\n', reads: { meminfo: { text: 'MemTotal: 1024 kB\n' } } }];
  for (const [kind, [m, want]] of Object.entries(ABSENT)) {
    const r = judge(check(unset, [m]), nodes);
    t.equal(r.status, want, `${kind} on absent: ${want}`);
    if (want === 'fail') t.match(r.findings[0]?.message, /absent|n1/, `${kind}: the finding says why`);
  }
  const setTo = (yml: string, m: PackMatcher) =>
    judge(check({ kind: 'setting', key: 'a' }, [m]), [{ name: 'n1', yml }]);
  t.equal(setTo('a: ""', { kind: 'empty', value: true }).status, 'pass', 'empty: true on an empty string');
  t.equal(setTo('a: []', { kind: 'empty', value: false }).status, 'fail', 'empty: false on an empty list');
  t.equal(judge(check(unset, [{ kind: 'empty', value: false }]), [{ name: 'n1', yml: 'a: 1' }]).status, 'fail');
});

t.test('contains and its kin on a string look for a part of it', async (t) => {
  const s = (m: PackMatcher) =>
    judge(check({ kind: 'setting', key: 'a' }, [m]), [{ name: 'n1', yml: 'a: "-Xss1m -Dfile.encoding=UTF-8"' }]).status;
  t.equal(s({ kind: 'contains', value: 'UTF-8' }), 'pass');
  t.equal(s({ kind: 'not_contains', value: 'UTF-8' }), 'fail');
  t.equal(s({ kind: 'contains_none_of', values: ['ISO', 'UTF-8'] }), 'fail');
  t.equal(s({ kind: 'contains_all', values: ['-Xss1m', 'UTF-16'] }), 'fail');
  t.equal(s({ kind: 'not_matches', regex: 'UTF-(8|16)' }), 'fail');
  t.equal(s({ kind: 'length', atLeast: 5, atMost: 40 }), 'pass');
  t.equal(s({ kind: 'length', atMost: 5 }), 'fail');
});

t.test('a list: contains_all, length, empty', async (t) => {
  const nodes: NodeSpec[] = [{ name: 'n1', keystore: ['a.b', 'c.d'] }];
  const k = (m: PackMatcher) => judge(check({ kind: 'keystore' }, [m]), nodes);
  t.equal(k({ kind: 'contains_all', values: ['a.b', 'c.d'] }).status, 'pass');
  t.match(k({ kind: 'contains_all', values: ['a.b', 'x.y'] }).findings[0]?.message, /lacks "x\.y"/);
  t.equal(k({ kind: 'length', atLeast: 2, atMost: 2 }).status, 'pass');
  t.match(k({ kind: 'length', atLeast: 3 }).findings[0]?.message, /has 2 items, fewer than 3/);
  t.equal(k({ kind: 'empty', value: false }).status, 'pass');
});

const api = (pick: string, body: unknown, more: object = {}) => {
  const c = check({ kind: 'api', path: '_nodes', pick, ...more }, [{ kind: 'equals', value: true }], {
    each: 'cluster',
  });
  return judge(c, [{ name: 'n1' }], { packReads: { _nodes: { statusCode: 200, body } } });
};

t.test('a pick that finds nothing is never a pass: an error naming the pick and its segment', async (t) => {
  // the lab's _nodes: no process section
  const nodes = { nodes: { a1: { name: 'd1', roles: ['data'] }, b2: { name: 'd2', roles: ['data'] } } };
  const none = api('nodes.*.process.mlockall', nodes);
  t.equal(none.status, 'error');
  t.match(none.reason, /pick nodes\.\*\.process\.mlockall found nothing: no 'process' after 'nodes\.\*'/);
  const typo = api('nodes.*.rolez', nodes);
  t.equal(typo.status, 'error', 'a typo after * is an error');
  t.match(typo.reason, /no 'rolez'/);
  const empty = api('nodes.*.roles', { nodes: {} });
  t.equal(empty.status, 'error', '* over nothing is an error');
  t.match(empty.reason, /'\*' after 'nodes' is an empty list \(allow_empty: true makes it \[\]\)/);
  t.equal(api('nodes.*.roles', { nodes: {} }, { allowEmpty: true }).status, 'pass', 'allow_empty: [] holds vacuously');
  t.equal(api('cluster_name', nodes).status, 'error', 'a missing field');
  t.match(api('cluster_name', nodes).reason, /pick cluster_name found nothing: no 'cluster_name'/);
  // some items lack the field: the others are judged
  const some = { nodes: { a1: { name: 'd1', x: true }, b2: { name: 'd2' } } };
  t.equal(api('nodes.*.x', some).status, 'pass');
});

t.test('api each_node: one value per node, matched by name or address, each finding names its node', async (t) => {
  const body = {
    nodes: {
      Zq1: { name: 'n1', ip: '10.0.0.1', jvm: { mem: { heap_used_percent: 40 } } },
      Xy2: { name: 'renamed', transport_address: '10.0.0.2:9300', jvm: { mem: { heap_used_percent: 91 } } },
      Ww3: { name: 'n3', ip: '10.0.0.3', jvm: {} },
    },
  };
  const c = check({ kind: 'api', path: '_nodes/stats/jvm', pick: 'jvm.mem.heap_used_percent', eachNode: true }, [
    { kind: 'at_most', value: 85 },
  ]);
  const r = judge(c, [{ name: 'n1' }, { name: 'n2' }, { name: 'n3' }], {
    packReads: { '_nodes/stats/jvm': { statusCode: 200, body } },
  });
  t.equal(r.status, 'fail');
  t.match(r.findings.find((f) => f.host === 'n2')?.message, /^n2: api _nodes\/stats\/jvm pick .* is 91, above 85/);
  t.match(
    r.findings.find((f) => f.host === 'n3')?.message,
    /n3: pick jvm\.mem\.heap_used_percent found nothing: no 'mem' after 'jvm' \(node n3\)/,
  );
  t.notOk(
    r.findings.some((f) => f.host === 'n1'),
    'n1 holds',
  );
});

t.test('scope and when: a check with no node in scope is skipped, never passed', async (t) => {
  const health = { packReads: { '_cluster/health': { statusCode: 200, body: { status: 'green' } } } };
  const c = (more: object) =>
    check({ kind: 'api', path: '_cluster/health', pick: 'status' }, [{ kind: 'equals', value: 'green' }], {
      each: 'cluster',
      ...more,
    });
  const nodes: NodeSpec[] = [
    { name: 'd1', roles: ['data'] },
    { name: 'm1', roles: ['cluster_manager'] },
  ];
  const ml = judge(c({ scope: { roles: ['ml'] } }), nodes, health);
  t.equal(ml.status, 'skip', 'scope.roles names no node: the cluster is not in scope');
  t.equal(ml.reason, 'no node in scope');
  t.equal(judge(c({ scope: { roles: ['data'] } }), nodes, health).status, 'pass', 'one node in scope');
  t.equal(judge(c({ scope: { groups: ['nope'] } }), nodes, health).status, 'skip');
  const when: { read: PackSource; expect: PackMatcher[] } = {
    read: { kind: 'setting', key: 'node.attr.zone' },
    expect: [{ kind: 'present', value: true }],
  };
  t.equal(
    judge(
      c({ when }),
      nodes.map((n) => ({ ...n, yml: 'a: 1' })),
      health,
    ).status,
    'skip',
    'when: on no node',
  );
  t.equal(judge(c({ when }), [{ name: 'd1', yml: 'node.attr.zone: a' }], health).status, 'pass');
  const nodeCheck = check({ kind: 'setting', key: 'a' }, [{ kind: 'present', value: true }], { when });
  const r = judge(nodeCheck, [{ name: 'd1', yml: 'a: 1' }]);
  t.same([r.status, r.reason], ['skip', 'no node in scope']);
});

t.test('same_on_nodes compares every node; except leaves items out', async (t) => {
  const nodes: NodeSpec[] = [
    { name: 'm1', roles: ['cluster_manager'], plugins: [{ name: 'analysis-icu' }] },
    { name: 'm2', roles: ['cluster_manager'] },
    { name: 'd1', roles: ['data'], plugins: [{ name: 'sm-sigma' }] },
    { name: 'd2', roles: ['data'], plugins: [{ name: 'sm-sigma' }] },
  ];
  const r = judge(check({ kind: 'plugins' }, [{ kind: 'same_on_nodes', except: ['sm-sigma'] }]), nodes);
  t.equal(r.status, 'fail', 'a plugin on one manager only fails');
  t.same(
    r.findings.map((f) => f.host),
    ['m1'],
  );
  const fine = nodes.map((n) => (n.name === 'm1' ? { ...n, plugins: [] } : n));
  t.equal(judge(check({ kind: 'plugins' }, [{ kind: 'same_on_nodes', except: ['sm-sigma'] }]), fine).status, 'pass');
});

t.test('messages: file absent or no line matching, same_as names the other source, sizes readable', async (t) => {
  const f = (text: string | null) =>
    judge(check({ kind: 'file', path: 'config/x', match: 'a=(\\d+)' }, [{ kind: 'equals', value: 1 }]), [
      { name: 'n1', reads: { files: { 'search:config/x': { text } } } },
    ]).findings[0]?.message;
  t.match(f(null), /n1: file config\/x is absent \(no such file\)/);
  t.match(f('b=2\n'), /n1: file config\/x has no line matching \/a=\(\\d\+\)\//);
  const s = judge(check({ kind: 'setting', key: 'a' }, [{ kind: 'same_as', source: { kind: 'setting', key: 'b' } }]), [
    { name: 'n1', yml: 'a: 1\nb: 2' },
  ]);
  t.match(s.findings[0]?.message, /is 1, but setting b is 2/);
});
