import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { execa } from 'execa';
import { startLab, type Lab } from '../../src/index.ts';
import { labStatus } from '../../src/lifecycle.ts';
import type { Scenario } from '../../src/model.ts';
import { ssh, curl, json } from '../helpers/lab.ts';

// A small lab: m1 (flat YAML, wrongly carrying sm-job-scheduler and its keystore entry), d1 (nested), web1.
const scenario: Scenario = {
  name: 'small',
  cluster_name: 'small',
  engine: 'opensearch',
  nodes: [
    {
      name: 'm1',
      roles: ['cluster_manager'],
      attrs: { node_with_sme: true },
      yml_style: 'flat',
      plugins: ['sm-job-scheduler', 'sm-sigma'],
      keystore: ['jobscheduler.email.pass'],
    },
    {
      name: 'd1',
      roles: ['data', 'ingest'],
      attrs: { node_with_sme: true },
      yml_style: 'nested',
      plugins: ['sme-re', 'sm-job-scheduler'],
      keystore: ['jobscheduler.email.pass'],
    },
  ],
  dashboards: [{ name: 'web1', hosts: 'd1' }],
  indices: [{ name: '.sm_sme_limits_user', settings: { index: { auto_expand_replicas: '0-all' } } }],
};

let lab: Lab;
t.before(async () => {
  lab = await startLab({ scenario, restartDelayMs: 50 });
});
t.teardown(async () => {
  await lab?.stop();
});

const node = (name: string) => ({
  ...lab.nodes.find((n) => n.name === name)!,
  keyFile: lab.keyFile,
  knownHostsFile: lab.knownHostsFile,
});
const api = (path: string, on = 'm1') => curl(lab.caFile, lab.password, `${node(on).apiUrl}${path}`);
const restartCmd = (name: string, service = 'opensearch') => `${lab.dir}/bin/labctl ${name} restart ${service}`;
const catNodes = async (on = 'm1') =>
  json<Array<{ name: string }>>((await api('/_cat/nodes?format=json&h=name', on)).body)
    .map((r) => r.name)
    .sort();
const attr = async (name: string) =>
  json<Array<{ node: string; attr: string; value: string }>>((await api('/_cat/nodeattrs?format=json')).body).find(
    (r) => r.node === name && r.attr === 'node_with_sme',
  )?.value;

t.test('the inventory loads with ansible-inventory and points at the lab', async (t) => {
  const r = await execa('ansible-inventory', ['-i', lab.inventoryPath, '--list'], {
    reject: false,
    env: { ANSIBLE_LOCALHOST_WARNING: 'false' },
  });
  t.equal(r.exitCode, 0, r.stderr);
  const inv = json<{
    _meta: { hostvars: Record<string, Record<string, unknown>> };
    cluster_managers: { hosts: string[] };
    data: { hosts: string[] };
    dashboards: { hosts: string[] };
  }>(r.stdout);
  t.same(inv.cluster_managers.hosts, ['m1']);
  t.same(inv.data.hosts, ['d1']);
  t.same(inv.dashboards.hosts, ['web1']);
  t.match(inv._meta.hostvars.m1, {
    ansible_host: node('m1').address,
    ansible_port: 2222,
    ansible_ssh_private_key_file: lab.keyFile,
    ssh_known_hosts_file: lab.knownHostsFile,
    ssh_host_key_checking: 'strict',
    api_url: node('d1').apiUrl,
    api_username: 'admin',
    api_ca_file: lab.caFile,
    search_home: node('m1').searchHome,
    restart_command: `${lab.dir}/bin/labctl m1 restart {service}`,
  });
  t.equal((await readFile(join(lab.dir, 'api-password'), 'utf8')).trim(), lab.password);
});

t.test('node tools over ssh: output and exit codes', async (t) => {
  const m1 = node('m1');
  const bin = `${m1.searchHome}/bin`;
  let r = await ssh(m1, `${bin}/opensearch-plugin list`);
  t.match(r, { exitCode: 0, stdout: 'sm-job-scheduler\nsm-sigma' });
  r = await ssh(m1, `${bin}/opensearch-plugin remove nope`);
  t.match(r, { exitCode: 78, stdout: '', stderr: /^ERROR: plugin \[nope\] not found; run 'opensearch-plugin list'/ });
  r = await ssh(m1, `${bin}/opensearch-keystore list`);
  t.match(r, { exitCode: 0, stdout: 'jobscheduler.email.pass\nkeystore.seed' });
  r = await ssh(m1, `${bin}/opensearch-keystore remove nope`);
  t.match(r, { exitCode: 78, stderr: 'ERROR: Setting [nope] does not exist in the keystore.' });
  r = await ssh(m1, `${bin}/opensearch-keystore add -x lab.test.secret`, 'v1');
  t.equal(r.exitCode, 0, r.stderr);
  r = await ssh(m1, `${bin}/opensearch-keystore remove lab.test.secret && ${bin}/opensearch-keystore list`);
  t.match(r, { exitCode: 0, stdout: 'jobscheduler.email.pass\nkeystore.seed' });
  r = await ssh(
    m1,
    `mv ${m1.searchHome}/config/opensearch.keystore /tmp/ks.$$; ${bin}/opensearch-keystore list; rc=$?; mv /tmp/ks.$$ ${m1.searchHome}/config/opensearch.keystore; exit $rc`,
  );
  t.match(r, { exitCode: 65, stderr: /^ERROR: opensearch keystore not found/ });
  r = await ssh(m1, `${bin}/opensearch-plugin`);
  t.equal(r.exitCode, 64);
});

t.test('an edit changes nothing until the restart_command restarts the node', async (t) => {
  const m1 = node('m1');
  t.equal(await attr('m1'), 'true');
  const r = await ssh(
    m1,
    `sed -i 's/^node.attr.node_with_sme: true/node.attr.node_with_sme: false/' ${m1.searchHome}/config/opensearch.yml`,
  );
  t.equal(r.exitCode, 0);
  t.equal(await attr('m1'), 'true', 'unchanged before the restart');
  const rr = await ssh(m1, restartCmd('m1'));
  t.match(rr, { exitCode: 0, stdout: '' });
  t.equal(await attr('m1'), 'false', 'changed after the restart');
  t.equal(await (await ssh(m1, restartCmd('m1', 'nosuch'))).exitCode, 5, 'unknown unit');
});

t.test('a node refuses to start with a keystore entry no plugin registers', async (t) => {
  const m1 = node('m1');
  const bin = `${m1.searchHome}/bin`;
  let r = await ssh(m1, `${bin}/opensearch-plugin remove sm-job-scheduler`);
  t.match(r, { exitCode: 0, stdout: '-> removing [sm-job-scheduler]...' });
  r = await ssh(m1, restartCmd('m1'));
  t.not(r.exitCode, 0);
  t.match(r.stderr, /Job for opensearch\.service failed/);
  // m1 is the only manager: while it is down no manager is elected, and d1 answers as OpenSearch does then
  t.match(
    json((await api('/_cat/nodes?format=json&h=name', 'd1')).body),
    { error: { type: 'cluster_manager_not_discovered_exception' }, status: 503 },
    'no cluster manager: _cat/nodes is a 503',
  );
  t.equal((await api('/', 'm1')).status, 0, 'its API refuses connections');
  t.match(
    await readFile(join(m1.searchHome, 'logs', 'small.log'), 'utf8'),
    /unknown secure setting \[jobscheduler\.email\.pass\]/,
  );
  t.match(
    (await labStatus(lab.dir))!.clusters[0]!.nodes.find((n) => n.name === 'm1'),
    { state: 'down', reason: /unknown secure setting/ },
  );
  r = await ssh(m1, `${bin}/opensearch-keystore remove jobscheduler.email.pass && ${restartCmd('m1')}`);
  t.equal(r.exitCode, 0, r.stderr);
  t.same(await catNodes('d1'), ['d1', 'm1']);
});

t.test('an invalid or duplicated YAML key keeps the node down', async (t) => {
  const d1 = node('d1');
  const yml = join(d1.searchHome, 'config', 'opensearch.yml');
  const good = await readFile(yml, 'utf8');
  for (const bad of [`${good}node.attr.node_with_sme: false\n`, `${good}node.roles: [data\n`]) {
    await writeFile(yml, bad);
    const r = await ssh(d1, restartCmd('d1'));
    t.not(r.exitCode, 0);
    t.match(
      (await labStatus(lab.dir))!.clusters[0]!.nodes.find((n) => n.name === 'd1'),
      { state: 'down', reason: /opensearch\.yml/ },
    );
  }
  t.match(
    await readFile(join(d1.searchHome, 'logs', 'small.log'), 'utf8'),
    /duplicate settings key \[node\.attr\.node_with_sme\]/,
  );
  await writeFile(yml, good);
  t.equal((await ssh(d1, restartCmd('d1'))).exitCode, 0);
});

t.test('a restarting node is out of the cluster until it is back', async (t) => {
  const d1 = node('d1');
  // out for 10 s: each look below is a curl, which a busy machine can make slow enough to miss a shorter window
  await writeFile(join(lab.dir, 'restart-delay-ms'), '10000\n');
  t.teardown(() => writeFile(join(lab.dir, 'restart-delay-ms'), '50\n'));
  const restart = ssh(d1, restartCmd('d1'));
  let refused = false;
  let absent = false;
  for (const deadline = Date.now() + 60_000; !(refused && absent) && Date.now() < deadline;) {
    refused ||= (await api('/', 'd1')).status === 0;
    absent ||= !(await catNodes('m1')).includes('d1');
    await new Promise((r) => setTimeout(r, 50));
  }
  t.ok(refused, 'connection refused while restarting');
  t.ok(absent, 'absent from _cat/nodes while restarting');
  t.equal((await restart).exitCode, 0);
  t.same(await catNodes('m1'), ['d1', 'm1']);
  t.equal((await api('/', 'd1')).status, 200);
});

t.test('web host: opensearch.hosts is reloaded on restart of opensearch-dashboards', async (t) => {
  const web = node('web1');
  const f = join(web.webHome, 'config', 'opensearch_dashboards.yml');
  t.match(await readFile(f, 'utf8'), `opensearch.hosts: "${node('d1').apiUrl}"`);
  await writeFile(
    f,
    (await readFile(f, 'utf8')).replace(/^opensearch\.hosts:.*$/m, `opensearch.hosts:\n  - ${node('m1').apiUrl}`),
  );
  t.same((await labStatus(lab.dir))!.clusters[0]!.web_hosts[0]!.hosts, [node('d1').apiUrl], 'unchanged before restart');
  t.equal((await ssh(web, restartCmd('web1', 'opensearch-dashboards'))).exitCode, 0);
  t.same((await labStatus(lab.dir))!.clusters[0]!.web_hosts[0]!.hosts, [node('m1').apiUrl]);
  t.equal((await ssh(web, restartCmd('web1'))).exitCode, 5, 'no engine on a web-only host');
});

t.test('the index store is persisted to cluster/state.json on change', async (t) => {
  const put = await curl(lab.caFile, lab.password, `${node('d1').apiUrl}/.sm_sme_limits_user/_doc/base_limit`, [
    '-X',
    'PUT',
    '-H',
    'content-type: application/json',
    '-d',
    '{"max_qsize":7,"_meta":{"id":"base_limit"}}',
  ]);
  t.equal(put.status, 201, put.body);
  // the store keeps each source as its JSON text (compact, 64-bit integers exact)
  const stored = async (): Promise<unknown> => {
    const state = JSON.parse(await readFile(join(lab.dir, 'cluster', 'state.json'), 'utf8')) as {
      clusters: Record<string, { indices: Array<{ name: string; docs: Record<string, { source_json: string }> }> }>;
    };
    const index = Object.values(state.clusters)
      .flatMap((c) => c.indices)
      .find((i) => i.name === '.sm_sme_limits_user');
    const doc = index?.docs.base_limit;
    return doc ? JSON.parse(doc.source_json) : undefined;
  };
  // the lab writes it 100 ms after the change, or later on a busy machine
  let source = await stored();
  for (
    const deadline = Date.now() + 30_000;
    (source as { max_qsize?: number } | undefined)?.max_qsize !== 7 && Date.now() < deadline;
  ) {
    await new Promise((r) => setTimeout(r, 50));
    source = await stored();
  }
  t.same(source, { max_qsize: 7, _meta: { id: 'base_limit' } });
});
