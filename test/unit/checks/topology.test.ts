/** The topology the report draws: what the checks read on each node, from the same facts they read. */
import t from 'tap';
import { topologyOf } from '../../../src/checks/topology.ts';
import { cluster, nodeHost, specs, webHost, withNode } from '../../helpers/checks/facts.ts';

t.test('healthy fleet: roles, elected manager, plugins on data nodes, limits copies, web targets', async (t) => {
  const topo = topologyOf(cluster());
  const m1 = topo.nodes.find((n) => n.name === 'm1')!;
  t.match(m1, { master: true, elected: true, node_with_sme: false, plugins: [], keystore_entry: false });
  const d1 = topo.nodes.find((n) => n.name === 'd1')!;
  t.match(d1, { master: false, elected: false, node_with_sme: true, keystore_entry: true });
  t.same(d1.plugins!.sort(), [...specs()[3]!.plugins].sort());
  t.ok(
    d1.limits_copies.some((c) => c.endsWith('STARTED')),
    'a started copy of the limits index',
  );
  t.same(topo.web, [
    {
      host: 'w1',
      reachable: true,
      points_at: [
        { url: 'https://10.0.0.4:9200', node: 'd1' },
        { url: 'https://10.0.0.5:9200', node: 'd2' },
      ],
    },
  ]);
});

t.test('broken: a master with node_with_sme and plugins, a web host on a master, an unknown URL', async (t) => {
  const nodes = withNode('m2', { sme: true, plugins: ['sm-sigma'] });
  const topo = topologyOf(
    cluster({ nodes, web: [webHost('w1', '10.0.0.9', ['https://10.0.0.2:9200', 'https://elsewhere:9200'])] }),
  );
  t.match(
    topo.nodes.find((n) => n.name === 'm2'),
    { master: true, node_with_sme: true, plugins: ['sm-sigma'], keystore_entry: true },
  );
  t.same(topo.web[0]!.points_at, [
    { url: 'https://10.0.0.2:9200', node: 'm2' },
    { url: 'https://elsewhere:9200', node: null },
  ]);
});

t.test('not read: an unreachable host says null, never false', async (t) => {
  const nodes = specs();
  const hosts = nodes.map((n) => (n.name === 'm3' ? nodeHost(n, { reachable: false, error: 'timeout' }) : nodeHost(n)));
  const m3 = topologyOf(cluster({ hosts })).nodes.find((n) => n.name === 'm3')!;
  t.match(m3, { reachable: false, node_with_sme: null, plugins: null, keystore_entry: null });
  const web = topologyOf(cluster({ web: [webHost('w1', '10.0.0.9', [], { reachable: false })] })).web[0]!;
  t.same(web, { host: 'w1', reachable: false, points_at: null });
});
