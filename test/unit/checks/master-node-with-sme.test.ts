import t from 'tap';
import { applyPatch } from 'diff';
import { masterNodeWithSme } from '../../../src/checks/index.ts';
import { readKey } from '../../../src/yamledit/index.ts';
import { cluster, nodeHost, specs, withNode, hostConfig, type NodeSpec } from '../../helpers/checks/facts.ts';
import type { HostFacts } from '../../../src/model/index.ts';

const PATH = '/app/opensearch/config/opensearch.yml';

/** The fleet with m1's opensearch.yml replaced (and its host facts changed). */
function withM1(text: string | null, over: Partial<HostFacts> = {}, nodes: NodeSpec[] = specs()) {
  const hosts = nodes
    .filter((n) => n.host !== null)
    .map((n) =>
      n.name === 'm1' ? nodeHost(n, { engineYml: text === null ? null : { path: PATH, text }, ...over }) : nodeHost(n),
    );
  return cluster({ nodes, hosts });
}

t.test('node_with_sme true on a master: set false and restart, any spelling', async (t) => {
  const cases = [
    {
      name: 'flat',
      text: 'cluster.name: prod\nnode.roles: [cluster_manager]\nnode.attr.node_with_sme: true # sme\n',
      line: 3,
      value: true,
      after: 'node.attr.node_with_sme: false # sme',
    },
    {
      name: 'nested',
      text: 'node:\n  name: m1\n  roles:\n    - cluster_manager\n  attr:\n    node_with_sme: true\n',
      line: 6,
      value: true,
      after: '    node_with_sme: false',
    },
    {
      name: 'mixed',
      text: '# c\nnode.roles: [cluster_manager]\nnode.attr:\n  rack: r1\n  node_with_sme: true\n',
      line: 5,
      value: true,
      after: '  node_with_sme: false',
    },
    {
      name: 'quoted',
      text: 'node.roles: ["cluster_manager"]\nnode.attr.node_with_sme: "true"\n',
      line: 2,
      value: 'true',
      after: 'node.attr.node_with_sme: "false"',
    },
    {
      name: 'legacy node.master',
      text: 'node.master: true\nnode.data: false\nnode.attr.node_with_sme: true\n',
      line: 3,
      value: true,
      after: 'node.attr.node_with_sme: false',
    },
  ];
  for (const c of cases) {
    const r = masterNodeWithSme.run(withM1(c.text));
    t.match(r, { id: 'master-node-with-sme', order: 2, status: 'fail', reason: /m1/ }, c.name);
    t.match(
      r.findings,
      [{ host: 'm1', evidence: { path: PATH, line: c.line, value: c.value } }],
      `${c.name}: evidence`,
    );
    t.match(
      r.actions,
      [
        { type: 'set-yaml', host: 'm1', path: PATH, key: 'node.attr.node_with_sme', value: false, status: 'planned' },
        {
          type: 'restart-service',
          host: 'm1',
          service: 'opensearch',
          command: 'systemctl restart opensearch',
          status: 'planned',
        },
      ],
      `${c.name}: actions`,
    );
    const edited = applyPatch(c.text, r.actions[0].diff!);
    t.type(edited, 'string', `${c.name}: diff applies`);
    t.ok((edited as string).split('\n').includes(c.after), `${c.name}: edited line`);
    const changed = c.text.split('\n').filter((l, i) => l !== (edited as string).split('\n')[i]);
    t.equal(changed.length, 1, `${c.name}: one line changed`);
    t.notOk(readKey(edited as string, 'node.attr.node_with_sme').found?.value === true, `${c.name}: no longer true`);
  }
});

t.test('become and a custom restart template shape the command', async (t) => {
  const config = hostConfig('m1', '10.0.0.1', { become: true, restartCommand: 'service {service} restart' });
  const r = masterNodeWithSme.run(withM1('node.roles: [cluster_manager]\nnode.attr.node_with_sme: true\n', { config }));
  t.match(r.actions[1], { command: 'sudo -n service opensearch restart' });
});

t.test('pass: data nodes with true are fine, masters false or absent', async (t) => {
  t.match(masterNodeWithSme.run(cluster()), { status: 'pass', findings: [], actions: [] });
  t.match(masterNodeWithSme.run(withM1('node.roles: [cluster_manager]\n')), { status: 'pass', actions: [] });
});

t.test('restart pending: running attr true, file already false', async (t) => {
  // Running with true (nodeattrs), while the file on disk already says false.
  const nodes = withNode('m1', { sme: true });
  const r = masterNodeWithSme.run(
    cluster({ nodes, hosts: nodes.map((n) => nodeHost({ ...n, sme: n.name === 'm1' ? false : n.sme })) }),
  );
  t.match(r, { status: 'fail' });
  t.match(r.findings, [
    { host: 'm1', kind: 'restart-pending', message: /restart is pending/, evidence: { line: 7, value: false } },
  ]);
  t.same(
    r.actions.map((a) => a.type),
    ['restart-service'],
  );
});

t.test('file roles disagree with running roles: a finding of its own', async (t) => {
  const r = masterNodeWithSme.run(withM1('node.roles: [data]\nnode.attr.node_with_sme: false\n'));
  t.match(r, {
    status: 'pass',
    findings: [{ host: 'm1', kind: 'restart-pending', evidence: { path: PATH, line: 1 } }],
  });
  // d1 is running as data but its file makes it a master, with node_with_sme true: fix before the restart.
  const nodes = specs();
  const hosts = nodes.map((n) =>
    n.name === 'd1'
      ? nodeHost(n, {
          engineYml: { path: PATH, text: 'node.roles: [cluster_manager, data]\nnode.attr.node_with_sme: true\n' },
        })
      : nodeHost(n),
  );
  const r2 = masterNodeWithSme.run(cluster({ nodes, hosts }));
  t.match(r2, {
    status: 'fail',
    findings: [
      { host: 'd1', kind: 'restart-pending' },
      { host: 'd1', evidence: { line: 2 } },
    ],
  });
  t.same(
    r2.actions.map((a) => `${a.type}:${a.host}`),
    ['set-yaml:d1', 'restart-service:d1'],
  );
});

t.test('undecidable masters: error naming them, unless something failed', async (t) => {
  const cases = [
    {
      name: 'not in inventory',
      facts: cluster({ nodes: withNode('m2', { host: null }) }),
      reason: /m2 \(10\.0\.0\.2\) is not in the inventory/,
    },
    {
      name: 'unreachable',
      facts: withM1('x: 1\n', { reachable: false, error: 'connect ETIMEDOUT' }),
      reason: /m1 is unreachable: connect ETIMEDOUT/,
    },
    {
      name: 'file absent',
      facts: withM1(null),
      reason: /\/app\/opensearch\/config\/opensearch.yml was not found on host m1/,
    },
    {
      name: 'unparsable',
      facts: withM1('node.roles: [cluster_manager\n'),
      reason: /opensearch.yml:2:1: cannot be parsed/,
    },
    {
      name: 'duplicate key',
      facts: withM1('node.attr.node_with_sme: false\nnode:\n  attr:\n    node_with_sme: true\n'),
      reason: /opensearch.yml:4:5: cannot be parsed \(DUPLICATE_KEY/,
    },
  ];
  for (const c of cases) {
    const r = masterNodeWithSme.run(c.facts);
    t.match(r, { status: 'error', reason: c.reason, actions: [] }, c.name);
    t.match(r.findings, [{ kind: 'unverified' }], `${c.name}: finding`);
  }
  // Not in the inventory but running with true: that is known to fail, and cannot be edited.
  const r = masterNodeWithSme.run(cluster({ nodes: withNode('m2', { host: null, sme: true }) }));
  t.match(r, { status: 'fail', actions: [], findings: [{ message: /m2.*node_with_sme=true.*by hand/ }] });
  // One master fails, another is undecided: fail, and the reason names both.
  const both = masterNodeWithSme.run(withM1('node.attr.node_with_sme: true\n', {}, withNode('m2', { host: null })));
  t.match(both, { status: 'fail', reason: /m1.*not decided: master m2/ });
  t.match(masterNodeWithSme.run(cluster({ api: { reachable: false, nodes: [], error: 'ECONNREFUSED' }, nodes: [] })), {
    status: 'error',
    reason: /no running nodes.*ECONNREFUSED/,
  });
});

t.test(
  'roles from ${NODE_ROLE}: resolved from the engine environment; unknown when unread, judged as running',
  async (t) => {
    const yml = "node.roles: ['${NODE_ROLE}']\nnode.attr.node_with_sme: false\n";
    const cases: Array<[string, Record<string, string> | null, string[]]> = [
      ['resolved to the running role', { NODE_ROLE: 'cluster_manager' }, []],
      ['environment unread: no restart claimed', null, []],
      ['resolved to another role: a restart is pending', { NODE_ROLE: 'data' }, ['restart-pending']],
    ];
    for (const [name, env, kinds] of cases) {
      const r = masterNodeWithSme.run(withM1(yml, { engineEnv: env }));
      t.match(r, { status: 'pass' }, name);
      t.same(
        r.findings.map((f) => f.kind),
        kinds,
        name,
      );
    }
    const sme = masterNodeWithSme.run(
      withM1("node.roles: ['${R}']\nnode.attr.node_with_sme: true\n", { engineEnv: null }),
    );
    t.match(sme, { status: 'fail' }, 'running as a master, node_with_sme true in the file: still fixed');
  },
);
