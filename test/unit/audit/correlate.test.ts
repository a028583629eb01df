import t from 'tap';
import { correlate } from '../../../src/audit/correlate.ts';
import { emptyApiFacts } from '../../../src/audit/gather-api.ts';
import { emptyHostFacts } from '../../../src/audit/gather-host.ts';
import type { ApiFacts, HostFacts } from '../../../src/model/index.ts';
import { cfg, nodeRow } from '../../helpers/audit/fakes.ts';

const host = (name: string, address: string, o: Partial<HostFacts> & { yml?: string } = {}): HostFacts => {
  const { yml, ...rest } = o;
  return {
    ...emptyHostFacts(cfg(name, { address }), true),
    ...(yml !== undefined ? { engineYml: { path: `/app/opensearch/config/opensearch.yml`, text: yml } } : {}),
    ...rest,
  };
};
const api = (o: Partial<ApiFacts>): ApiFacts => ({ ...emptyApiFacts(true), ...o });
const kinds = (notes: Array<{ evidence?: Record<string, unknown> }>) => notes.map((n) => n.evidence?.kind);

t.test('matches nodes to hosts by address, by host name, by configured node.name', async (t) => {
  const hosts = [
    host('m1', '10.0.0.1', { yml: 'node.roles: [cluster_manager]\n' }),
    host('d1', 'd1.example', { yml: 'node.roles: [data]\n' }),
    host('d2', 'd2.example', { yml: 'node:\n  name: data-2\n  roles: [data]\n' }),
  ];
  const rows = [
    nodeRow('node-a', '10.0.0.1', 'cluster_manager', '*'),
    nodeRow('d1', '10.0.0.2', 'data'),
    nodeRow('data-2', '10.0.0.3', 'data'),
  ];
  const { nodes, notes } = correlate(hosts, api({ nodes: rows }));
  t.same(
    nodes.map((n) => [n.name, n.host, n.isMaster]),
    [
      ['node-a', 'm1', true],
      ['d1', 'd1', false],
      ['data-2', 'd2', false],
    ],
  );
  t.same(kinds(notes), [], 'everything adds up: no notes');
});

t.test('cluster nodes missing from the inventory name the incomplete checks', async (t) => {
  const rows = [
    nodeRow('m1', '10.0.0.1', 'cluster_manager,data', '*'),
    nodeRow('m2', '10.0.0.5', 'cluster_manager'),
    nodeRow('d9', '10.0.0.9', 'data,ingest'),
  ];
  const { nodes, notes } = correlate(
    [host('m1', '10.0.0.1', { yml: 'node.roles: [cluster_manager, data]\n' })],
    api({ nodes: rows }),
  );
  t.equal(nodes.filter((n) => !n.host).length, 2);
  t.match(notes, [
    {
      message: /m2 .*not in the inventory/,
      evidence: {
        kind: 'node-not-in-inventory',
        node: 'm2',
        incomplete_checks: ['master-node-with-sme', 'dashboards-hosts', 'master-plugins'],
      },
    },
    {
      message: /d9 .*not in the inventory/,
      evidence: { kind: 'node-not-in-inventory', node: 'd9', incomplete_checks: ['dashboards-hosts'] },
    },
  ]);
});

t.test('inventory hosts missing from the cluster, except web-only hosts; unreachable hosts noted once', async (t) => {
  const hosts = [
    host('m1', '10.0.0.1', { yml: 'node.roles: [cluster_manager]\n' }),
    host('ghost', '10.0.0.7', { yml: 'node.roles: [data]\n' }),
    host('web', '10.0.0.8', { isWeb: true, dashboardsYml: { path: '/d.yml', text: 'opensearch.hosts: x\n' } }),
    { ...emptyHostFacts(cfg('down', { address: '10.0.0.6' }), false, 'connect ECONNREFUSED') },
  ];
  const { notes } = correlate(hosts, api({ nodes: [nodeRow('m1', '10.0.0.1', 'cluster_manager')] }));
  t.same(kinds(notes), ['host-unreachable', 'host-not-in-cluster']);
  t.match(notes, [
    { host: 'down', message: /ECONNREFUSED/ },
    { host: 'ghost', message: /not a node of the running cluster/ },
  ]);
});

t.test('restart pending: roles, node_with_sme and plugins differ between disk and running node', async (t) => {
  const cases = [
    {
      name: 'roles',
      yml: 'node.roles: [data]\nnode.attr.node_with_sme: true\n',
      roles: 'cluster_manager',
      attr: 'true',
      disk: [],
      loaded: [],
      what: ['node.roles'],
    },
    {
      name: 'legacy master spelling equals cluster_manager',
      yml: 'node.roles: [master]\n',
      roles: 'cluster_manager',
      disk: [],
      loaded: [],
      what: [],
    },
    {
      name: 'attr edited, not restarted',
      yml: 'node:\n  roles: [cluster_manager]\n  attr:\n    node_with_sme: false\n',
      roles: 'cluster_manager',
      attr: 'true',
      disk: [],
      loaded: [],
      what: ['node.attr.node_with_sme'],
    },
    {
      name: 'plugin removed on disk, still loaded',
      yml: 'node.roles: [cluster_manager]\n',
      roles: 'cluster_manager',
      disk: ['sm-sigma'],
      loaded: ['sm-sigma', 'sm-job-scheduler'],
      what: ['plugins'],
    },
    {
      name: 'no node.roles means the default roles',
      yml: 'cluster.name: x\n',
      roles: 'cluster_manager,data,ingest,remote_cluster_client',
      disk: [],
      loaded: [],
      what: [],
    },
  ];
  for (const c of cases) {
    const h = host('m1', '10.0.0.1', { yml: c.yml, plugins: c.disk.map((p) => ({ folder: p, name: p })) });
    const { notes } = correlate(
      [h],
      api({
        nodes: [nodeRow('m1', '10.0.0.1', c.roles, '*')],
        nodeattrs: c.attr
          ? [{ node: 'm1', host: '10.0.0.1', ip: '10.0.0.1', attr: 'node_with_sme', value: c.attr }]
          : [],
        plugins: c.loaded.map((p) => ({ name: 'm1', component: p, version: '1' })),
      }),
    );
    t.same(
      notes.map((n) => n.evidence?.what),
      c.what,
      c.name,
    );
    for (const n of notes)
      t.match(n, { host: 'm1', message: /^restart pending/, evidence: { kind: 'restart-pending' } });
  }
});

t.test(
  'placeholders: resolved from the engine environment, unknown when it was not read, never a false restart',
  async (t) => {
    const yml = "node.roles: ['${NODE_ROLE}']\nnode.attr.node_with_sme: ${SME:false}\n";
    const sme = { node: 'd1', host: '10.0.0.1', ip: '10.0.0.1', attr: 'node_with_sme', value: 'false' };
    const cases: Array<{ name: string; env: Record<string, string> | null; roles: string; kinds: unknown[] }> = [
      { name: 'env read, same as running', env: { NODE_ROLE: 'data' }, roles: 'data', kinds: [] },
      {
        name: 'env read, differs: a real restart pending',
        env: { NODE_ROLE: 'ingest' },
        roles: 'data',
        kinds: ['restart-pending'],
      },
      {
        name: 'env not read: unknown, not literal',
        env: null,
        roles: 'data',
        kinds: ['setting-unknown', 'setting-unknown'],
      },
      { name: 'variable unset: the engine would not start', env: {}, roles: 'data', kinds: ['setting-unresolvable'] },
    ];
    for (const c of cases) {
      const { notes } = correlate(
        [host('d1', '10.0.0.1', { yml, engineEnv: c.env })],
        api({ nodes: [nodeRow('d1', '10.0.0.1', c.roles)], nodeattrs: [sme] }),
      );
      t.same(kinds(notes), c.kinds, c.name);
    }
    const { notes } = correlate(
      [host('d1', '10.0.0.1', { yml, engineEnv: null })],
      api({ nodes: [nodeRow('d1', '10.0.0.1', 'data')] }),
    );
    t.match(notes[0], {
      host: 'd1',
      kind: 'unverified',
      message:
        /node\.roles in .* is set from \$\{NODE_ROLE\} and the running engine's environment could not be read .*unknown from the file; the running node d1 has \["data"\]/,
      evidence: { what: 'node.roles', placeholders: ['NODE_ROLE'], running: ['data'] },
    });
  },
);

t.test('API down: one note, no guesses about membership', async (t) => {
  const { nodes, notes } = correlate([host('m1', '10.0.0.1', { yml: 'x: 1\n' })], emptyApiFacts(false, 'ECONNREFUSED'));
  t.same(nodes, []);
  t.same(kinds(notes), ['api-unreachable']);
});
