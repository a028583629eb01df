/**
 * The tool against the lab API through its one client wiring: it reads only the shapes of OPENSEARCH-FACTS.md
 * and copes with the variations they allow (legacy `master` role, `node.master: true`, hosts as one string).
 */
import t from 'tap';
import { startLab } from '../../../lab/test/helpers/api-fixture.ts';
import { gatherApi } from '../../../src/audit/gather-api.ts';
import { gatherHost } from '../../../src/audit/gather-host.ts';
import { correlate } from '../../../src/audit/correlate.ts';
import { runChecks } from '../../../src/checks/index.ts';
import type { ClusterFacts } from '../../../src/model/index.ts';
import { putDocument, putSettings, verifyShards } from '../../../src/fix/steps-api.ts';
import { fakeEnv, planned } from '../../helpers/fix/fakes.ts';
import { ApiError } from '../../../src/base/errors.ts';
import type { ActionOf } from '../../../src/model/index.ts';
import { cfg, descriptor, plantHost, type HostTree } from '../../helpers/audit/fakes.ts';
import { fakeTransport } from '../../helpers/audit/local-sh.ts';
import { requestAs } from '../../helpers/request-as.ts';
import { labApi } from '../../helpers/lab-api.ts';

const lab = await startLab(t);
const node = (name: string) => lab.view.all.find((n) => n.name === name)!;
// master-2 runs as a legacy `node.master: true` node would: role name `master`.
Object.assign(node('master-2'), {
  roles: ['master', 'remote_cluster_client'],
  attrs: { node_with_sme: 'true' },
  plugins: [{ name: 'sm-sigma', version: '2.11.0' }],
});

const root = t.testdir({});
const api = labApi(t, lab);

t.test('gatherApi reads the facts shapes: _cat rows keyed as asked, settings, health, documents', async (t) => {
  const f = await gatherApi(api);
  t.match(f, { reachable: true, clusterName: 'lab-cluster', health: { statusCode: 200, body: { status: 'green' } } });
  t.equal(f.error, undefined);
  for (const row of f.nodes) t.same(Object.keys(row), ['ip', 'name', 'node.roles', 'cluster_manager'], row.name!);
  t.match(
    f.nodes.find((r) => r.name === 'master-2'),
    { 'node.roles': 'master,remote_cluster_client', cluster_manager: '-' },
  );
  t.match(f.plugins, [
    { name: 'master-1', component: 'sm-job-scheduler' },
    { name: 'master-2', component: 'sm-sigma' },
    { name: 'data-1', component: 'sme-re' },
  ]);
  t.match(f.limitsSettings, {
    statusCode: 200,
    body: { '.sm_sme_limits_user': { settings: { index: { auto_expand_replicas: '0-all' } } } },
  });
  t.same(f.limitsShards.map((r) => `${r.prirep} ${r.state} ${r.node}`).sort(), [
    'p STARTED data-1',
    'r STARTED data-2',
  ]);
  t.match(f.baseLimitDoc, { statusCode: 200, body: { found: true, _seq_no: Number, _primary_term: 1 } });
  t.match(f.baseLimitEndpoint, { statusCode: 200 });
});

t.test('an error status resolves with the engine body (status from the client, not thrown)', async (t) => {
  const cases: Array<[string, number, string]> = [
    ['/nope/_settings', 404, 'index_not_found_exception'],
    ['/.sm_sme_limits_user/_doc/nope', 404, ''],
    ['/_cat/nope/x', 400, 'no handler'],
  ];
  for (const [path, status, type] of cases) {
    const r = await requestAs<any>(api, { method: 'GET', path });
    t.equal(r.statusCode, status, path);
    // the REST layer's own refusal is a bare string, without status
    if (type === 'no handler') t.same(r.body, { error: `no handler found for uri [${path}] and method [GET]` }, path);
    else if (type) t.match(r.body, { error: { type }, status }, path);
    else t.same(r.body, { _index: '.sm_sme_limits_user', _id: 'nope', found: false }, path);
  }
  const text = await api.request({
    method: 'GET',
    path: '/_cat/shards/.sm_sme_limits_user',
    querystring: { v: 'true' },
  });
  t.match(text, { statusCode: 200, body: /^index +shard prirep state/ }, 'text stays a string');
  const late = await requestAs<any>(api, {
    method: 'GET',
    path: '/_cluster/health',
    querystring: { wait_for_nodes: '>=9', timeout: '100ms' },
  });
  t.match(late, { statusCode: 408, body: { timed_out: true } });
});

t.test('checks over lab answers and legacy configs', async (t) => {
  const apiFacts = await gatherApi(api);
  const m2: HostTree = {
    engineYml:
      'node.name: master-2\nnode.master: true\nnode.data: false\nnode.ingest: false\nnode.attr.node_with_sme: true\n',
    plugins: { 'sm-sigma': descriptor('sm-sigma') },
    keystore: ['jobscheduler.email.pass', 'keystore.seed'],
  };
  const w1: HostTree = { dashboardsYml: `opensearch.hosts: "https://${node('master-2').ip}:9200"\n` };
  const w2: HostTree = { dashboardsYml: `opensearch.hosts: https://${node('data-1').ip}:9200\n` };
  const trees: Record<string, [HostTree, Partial<Parameters<typeof cfg>[1]>]> = {
    m2: [m2, { address: node('master-2').ip }],
    w1: [w1, { address: '10.9.9.1', inDashboardsGroup: true }],
    w2: [w2, { address: '10.9.9.2', inDashboardsGroup: true }],
  };
  const hosts = await Promise.all(
    Object.entries(trees).map(([name, [tree, over]]) =>
      gatherHost(plantHost(root, name, tree, over), async () => fakeTransport(name, tree), apiFacts, 10),
    ),
  );
  const { nodes, notes } = correlate(hosts, apiFacts);
  t.match(
    nodes.find((n) => n.name === 'master-2'),
    { host: 'm2', isMaster: true, roles: ['master', 'remote_cluster_client'] },
  );
  t.notOk(
    notes.some((n) => n.host === 'm2'),
    'legacy config and legacy running role agree: no restart pending',
  );
  const facts: ClusterFacts = { apiUrl: lab.url, name: apiFacts.clusterName!, hosts, api: apiFacts, nodes };
  const [doc, sme, dash, plugins, replicas] = runChecks(facts);
  // The fixture's document lacks fields: it is replaced at exactly the version GET _doc read.
  t.match(doc, {
    status: 'fail',
    actions: [
      {
        type: 'put-document',
        if_seq_no: (apiFacts.baseLimitDoc!.body as { _seq_no: number })._seq_no,
        if_primary_term: 1,
      },
    ],
  });
  t.match(sme, {
    status: 'fail',
    actions: [{ type: 'set-yaml', host: 'm2', key: 'node.attr.node_with_sme', value: false }],
  });
  t.match(dash, {
    status: 'error',
    findings: [
      { host: 'w1', message: /lists master master-2/ },
      { host: 'w1', kind: 'unverified' },
    ],
  });
  t.notOk(
    dash!.findings.some((f) => f.host === 'w2'),
    'a single-string data node is fine',
  );
  t.match(plugins, {
    status: 'fail',
    actions: [
      { type: 'remove-plugin', host: 'm2', value: 'sm-sigma' },
      { type: 'remove-keystore-entry', host: 'm2' },
      { type: 'restart-service', host: 'm2' },
    ],
  });
  t.match(replicas, { status: 'pass' });

  // The limits index as the cluster shows it after a wrong auto_expand_replicas: check 5 reads the string leaf.
  lab.store.putSettings('.sm_sme_limits_user', { index: { auto_expand_replicas: '0-1' } });
  t.teardown(() => lab.store.putSettings('.sm_sme_limits_user', { index: { auto_expand_replicas: '0-all' } }));
  const after = await gatherApi(api);
  t.match(runChecks({ ...facts, api: after })[4], { status: 'fail', reason: /"0-1"/ });
});

t.test('fix steps against the lab: create, stale replace, settings, shard placement', async (t) => {
  // the shard table after verify-shards gets one --timeout of its own: a second is not enough on a loaded machine
  const env = fakeEnv([], api, [], { timeout: 10, pollMs: 10 });
  const doc = (over: Partial<ActionOf<'put-document'>>) =>
    planned({
      type: 'put-document',
      method: 'PUT',
      api_path: '/.sm_sme_limits_user/_doc/base_limit',
      body: { _meta: { id: 'base_limit' } },
      ...over,
    });
  const read = (await requestAs<any>(api, { method: 'GET', path: '/.sm_sme_limits_user/_doc/base_limit' })).body;
  t.match(await putDocument(doc({ if_seq_no: read._seq_no + 1, if_primary_term: 1 }), env), {
    status: 'failed',
    error: /changed since the audit.*version_conflict_engine_exception/,
  });
  t.match(await putDocument(doc({ op_type: 'create' }), env), { status: 'failed', error: /appeared since the audit/ });
  t.match(await putDocument(doc({ if_seq_no: read._seq_no, if_primary_term: read._primary_term }), env), {
    status: 'done',
    reason: 'document updated',
  });
  await api.request({ method: 'DELETE', path: '/.sm_sme_limits_user/_doc/base_limit' });
  t.match(await putDocument(doc({ op_type: 'create' }), env), { status: 'done', reason: 'document created' });
  const settings = planned({
    type: 'put-settings',
    method: 'PUT',
    api_path: '/.sm_sme_limits_user/_settings',
    body: { index: { auto_expand_replicas: '0-all' } },
  });
  t.match(await putSettings(settings, env), { status: 'done', reason: 'acknowledged' });
  t.match(await putSettings({ ...settings, body: { index: { auto_expand_replicas: 'all' } } }, env), {
    status: 'failed',
    error: /HTTP 400 illegal_argument_exception/,
  });
  const verify = await verifyShards(
    planned({ type: 'verify-shards', method: 'GET', api_path: '/_cat/shards/.sm_sme_limits_user?v=true' }),
    env,
  );
  t.match(verify, { status: 'done', output: /^index +shard prirep state/ });
});

t.test('transport failures reject with ApiError', async (t) => {
  const ip = new URL(lab.url).hostname;
  const refused = labApi(t, lab, { apiUrl: `https://${ip}:9201` });
  await t.rejects(refused.request({ method: 'GET', path: '/_cat/nodes' }), ApiError, 'ConnectionError');
  const slow = labApi(t, lab, { requestTimeout: 150 });
  lab.store.putSettings('logs', { number_of_replicas: 3 });
  t.teardown(() => lab.store.putSettings('logs', { number_of_replicas: 1 }));
  await t.rejects(
    slow.request({ method: 'GET', path: '/_cluster/health', querystring: { wait_for_status: 'green', timeout: '2s' } }),
    ApiError,
    'TimeoutError',
  );
});
