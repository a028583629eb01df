/** The role spellings OPENSEARCH-FACTS.md allows, in `_cat/nodes` and in opensearch.yml, read alike by correlate. */
import t from 'tap';
import { correlate } from '../../../src/audit/correlate.ts';
import { emptyHostFacts, gatherHost } from '../../../src/audit/gather-host.ts';
import { emptyApiFacts } from '../../../src/audit/gather-api.ts';
import { cfg, nodeRow, plantHost } from '../../helpers/audit/fakes.ts';
import { fakeTransport } from '../../helpers/audit/local-sh.ts';

const cases: Array<{ name: string; roles: string; yml: string; master: boolean; pending: boolean }> = [
  {
    name: 'defaults',
    roles: 'cluster_manager,data,ingest,remote_cluster_client',
    yml: 'cluster.name: c\n',
    master: true,
    pending: false,
  },
  {
    name: 'legacy master role, node.master: true',
    roles: 'data,ingest,master,remote_cluster_client',
    yml: 'node.master: true\n',
    master: true,
    pending: false,
  },
  {
    name: 'legacy master only',
    roles: 'master,remote_cluster_client',
    yml: 'node.master: true\nnode.data: false\nnode.ingest: false\n',
    master: true,
    pending: false,
  },
  {
    name: 'legacy node.master: false',
    roles: 'data,ingest,remote_cluster_client',
    yml: 'node.master: false\n',
    master: false,
    pending: false,
  },
  {
    name: 'nested node.roles',
    roles: 'cluster_manager',
    yml: 'node:\n  roles:\n    - cluster_manager\n',
    master: true,
    pending: false,
  },
  { name: 'coordinating only: - for no role', roles: '-', yml: 'node.roles: []\n', master: false, pending: false },
  { name: 'coordinating only: empty', roles: '', yml: 'node.roles: []\n', master: false, pending: false },
  { name: 'search node', roles: 'search', yml: 'node.roles: [search]\n', master: false, pending: false },
  {
    name: 'file differs from the running node',
    roles: 'data',
    yml: 'node.roles: [cluster_manager]\n',
    master: false,
    pending: true,
  },
];

t.test('running roles and config roles in every allowed spelling', async (t) => {
  for (const c of cases) {
    const host = {
      ...emptyHostFacts(cfg('n1', { address: '10.0.0.7' }), true),
      engineYml: { path: '/x/opensearch.yml', text: c.yml },
    };
    const api = { ...emptyApiFacts(true), nodes: [nodeRow('n1', '10.0.0.7', c.roles)] };
    const { nodes, notes } = correlate([host], api);
    t.match(nodes, [{ name: 'n1', host: 'n1', isMaster: c.master }], c.name);
    t.notOk(nodes[0]!.roles.includes('-'), `${c.name}: - is no role`);
    t.equal(
      notes.some((n) => n.evidence?.kind === 'restart-pending'),
      c.pending,
      `${c.name}: restart pending`,
    );
  }
});

t.test('the keystore is read for a legacy master carrying the scheduler plugins', async (t) => {
  const root = t.testdir({});
  const tree = {
    engineYml: 'node.master: true\n',
    plugins: { 'sm-job-scheduler': 'name=sm-job-scheduler\nversion=1\n' },
    keystore: ['jobscheduler.email.pass', 'keystore.seed'],
  };
  for (const roles of [
    'data,ingest,master,remote_cluster_client',
    'cluster_manager,data,ingest,remote_cluster_client',
  ]) {
    const api = { ...emptyApiFacts(true), nodes: [nodeRow('n1', '10.0.0.7', roles)] };
    const transport = fakeTransport('n1', tree);
    const facts = await gatherHost(plantHost(root, 'n1', tree, { address: '10.0.0.7' }), async () => transport, api, 5);
    t.same(facts.keystore, ['jobscheduler.email.pass', 'keystore.seed'], roles);
  }
});
