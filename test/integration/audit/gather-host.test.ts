import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { REDACTED, redactText } from '../../../src/text/index.ts';
import { batchCommand, parseBatch, parseProperties } from '../../../src/audit/batch.ts';
import { gatherHost, keystoreMatters, readHost } from '../../../src/audit/gather-host.ts';
import { emptyApiFacts } from '../../../src/audit/gather-api.ts';
import type { ApiFacts } from '../../../src/model/index.ts';
import { cfg, descriptor, nodeRow, plantHost, type HostTree } from '../../helpers/audit/fakes.ts';
import { fakeTransport } from '../../helpers/audit/local-sh.ts';

t.test('batch sections come back byte for byte, absent files marked', async (t) => {
  const cases: Array<{ name: string; tree: HostTree }> = [
    {
      name: 'all present, trailing newline',
      tree: {
        engineYml: 'node.name: m1\nnode.roles: [cluster_manager]\n',
        dashboardsYml: 'opensearch.hosts: ["https://d1:9200"]\n',
      },
    },
    {
      name: 'no trailing newline, odd text',
      tree: { engineYml: "a: 'x y'\n# SMDOCTOR- not a marker\n\n\nb: 1", dashboardsYml: '' },
    },
    { name: 'both absent', tree: {} },
  ];
  for (const c of cases) {
    const root = t.testdir({});
    const conf = plantHost(root, 'h1', c.tree);
    const facts = await readHost(fakeTransport('h1', c.tree), conf, 10);
    t.equal(facts.engineYml?.text ?? null, c.tree.engineYml ?? null, `${c.name}: engine yml`);
    t.equal(facts.dashboardsYml?.text ?? null, c.tree.dashboardsYml ?? null, `${c.name}: dashboards yml`);
    t.equal(
      facts.engineYml?.path ?? null,
      c.tree.engineYml === undefined ? null : `${conf.searchHome}/config/opensearch.yml`,
    );
    t.equal(facts.isWeb, c.tree.dashboardsYml !== undefined, `${c.name}: isWeb from the dashboards file`);
    t.equal(facts.reachable, true);
    t.equal(facts.error, undefined);
  }
});

t.test(
  'plugins: folder, descriptor name, version and engine version; a folder without descriptor keeps its folder name',
  async (t) => {
    const tree: HostTree = {
      engineYml: 'x: 1\n',
      plugins: {
        'job-sched': descriptor('sm-job-scheduler', '2.11.0.1'),
        'sm-sigma': descriptor('sm-sigma'),
        bare: null,
      },
    };
    const conf = plantHost(t.testdir({}), 'h1', tree);
    const facts = await readHost(fakeTransport('h1', tree), conf, 10);
    t.same(facts.plugins, [
      { folder: 'bare', name: 'bare' },
      { folder: 'job-sched', name: 'sm-job-scheduler', version: '2.11.0.1', engineVersion: '2.11.0' },
      { folder: 'sm-sigma', name: 'sm-sigma', version: '2.11.0', engineVersion: '2.11.0' },
    ]);
  },
);

t.test('a group named dashboards makes a web host without the file', async (t) => {
  const conf = plantHost(t.testdir({}), 'w1', {}, { inDashboardsGroup: true });
  const facts = await readHost(fakeTransport('w1', {}), conf, 10);
  t.equal(facts.isWeb, true);
});

t.test('parseBatch ignores text outside sections and notices a cut-off run', async (t) => {
  const b = 'SMDOCTOR-abc';
  const out = parseBatch(`motd\n${b} FILE engine\nx: 1\n${b} END 0\n${b} ABSENT dashboards\n`, b);
  t.same(out.sections, [
    { tag: 'engine', text: 'x: 1' },
    { tag: 'dashboards', text: null },
  ]);
  t.equal(out.complete, false);
  t.match(
    batchCommand({ probe: { engine: 'opensearch', searchHome: "/a b/'q'", searchHomeGiven: true, webHome: '/d' } }, b),
    `pick home inventory '/a b/'\\''q'\\'''`,
  );
  t.same(parseProperties('# c\nname = sm-sigma\nversion:1.0\n'), { name: 'sm-sigma', version: '1.0' });
});

const masterYml = 'node.name: m1\nnode.roles: [cluster_manager]\n';
const dataYml = 'node.name: d1\nnode.roles: [data, ingest]\n';
const api = (over: Partial<ApiFacts> = {}): ApiFacts => ({ ...emptyApiFacts(true), ...over });

t.test('keystore is asked only where its answer matters', async (t) => {
  const sched = { 'sm-job-scheduler': descriptor('sm-job-scheduler') };
  const cases: Array<{ name: string; tree: HostTree; api: ApiFacts; asked: boolean; keystore?: string[] | null }> = [
    {
      name: 'configured master with plugin on disk',
      tree: { engineYml: masterYml, plugins: sched, keystore: ['jobscheduler.email.pass', 'keystore.seed'] },
      api: api(),
      asked: true,
      keystore: ['jobscheduler.email.pass', 'keystore.seed'],
    },
    {
      name: 'master without keystore (exit 65)',
      tree: { engineYml: masterYml, plugins: sched, keystore: 'missing' },
      api: api(),
      asked: true,
      keystore: [],
    },
    {
      name: 'master without those plugins',
      tree: { engineYml: masterYml, plugins: { other: descriptor('analysis-icu') } },
      api: api(),
      asked: false,
    },
    {
      name: 'data node with the plugin',
      tree: { engineYml: dataYml, plugins: sched },
      api: api({ nodes: [nodeRow('d1', '10.9.9.9', 'data,ingest')] }),
      asked: false,
    },
    {
      name: 'running master (config says data) with plugin only loaded',
      tree: { engineYml: dataYml, keystore: ['keystore.seed'] },
      api: api({
        nodes: [nodeRow('d1', '10.0.0.2', 'cluster_manager,data')],
        plugins: [{ name: 'd1', component: 'sm-sigma', version: '1' }],
      }),
      asked: true,
      keystore: ['keystore.seed'],
    },
    { name: 'no engine config, not running', tree: { plugins: sched }, api: api(), asked: false },
  ];
  for (const c of cases) {
    const conf = plantHost(t.testdir({}), 'h1', c.tree, { address: '10.0.0.2' });
    const tr = fakeTransport('h1', c.tree);
    const facts = await gatherHost(conf, async () => tr, c.api, 10);
    const ks = tr.calls.filter((x) => / list$/.test(x.command));
    t.equal(ks.length, c.asked ? 1 : 0, `${c.name}: keystore calls`);
    t.equal(tr.calls.length, c.asked ? 2 : 1, `${c.name}: one batched read, keystore only when it matters`);
    if (c.asked)
      t.match(ks[0], { command: `${conf.searchHome}/bin/opensearch-keystore list`, opts: { asUser: 'opensearch' } });
    t.same(facts.keystore, c.asked ? c.keystore : null, `${c.name}: keystore facts`);
    t.equal(keystoreMatters(facts, c.api), c.asked);
    t.equal(tr.closed, 1, `${c.name}: connection closed`);
  }
});

t.test('an unreachable host becomes reachable:false with the error, and nothing throws', async (t) => {
  const facts = await gatherHost(
    cfg('gone'),
    async () => {
      throw new Error('connect ECONNREFUSED 10.0.0.4:22');
    },
    api(),
    5,
  );
  t.match(facts, {
    host: 'gone',
    reachable: false,
    error: /ECONNREFUSED/,
    engineYml: null,
    plugins: [],
    keystore: null,
  });
});

t.test('a command that times out mid-read: reachable false, connection still closed', async (t) => {
  const tr = fakeTransport('slow', {});
  tr.exec = async () => {
    throw new Error('timed out after 5s');
  };
  const facts = await gatherHost(cfg('slow'), async () => tr, api(), 5);
  t.match(facts, { reachable: false, error: /timed out/ });
  t.equal(tr.closed, 1);
});

/** A stand-in for the engine's JVM: its command line as the launcher writes it, its environment as given. */
function engineProcess(t: Test, home: string, env: Record<string, string>) {
  const argv = [
    '-c',
    'read _',
    'java',
    '-Xms1g',
    `-Dopensearch.path.home=${home}`,
    'org.opensearch.bootstrap.OpenSearch',
  ];
  const child = spawn('sh', argv, { env, stdio: ['pipe', 'ignore', 'ignore'] });
  t.teardown(() => void child.stdin.end());
  return child;
}

t.test('the engine environment: read from the one engine process of this home, else null', async (t) => {
  const tree: HostTree = { engineYml: "node.roles: ['${NODE_ROLE}']\n" };
  const read = async (conf: ReturnType<typeof plantHost>) =>
    (await readHost(fakeTransport('h1', tree), conf, 10)).engineEnv;
  const root = t.testdir({});
  const conf = plantHost(root, 'h1', tree);
  t.equal(await read(conf), null, 'no engine process: unknown');
  const other = plantHost(root, 'h2', tree);
  engineProcess(t, other.searchHome, { NODE_ROLE: 'ingest' });
  const keystoreCli = spawn(
    'sh',
    ['-c', 'read _', 'java', `-Dopensearch.path.home=${conf.searchHome}`, 'org.opensearch.common.settings.KeyStoreCli'],
    { stdio: 'pipe' },
  );
  t.teardown(() => void keystoreCli.stdin.end());
  engineProcess(t, conf.searchHome, {
    NODE_ROLE: 'data',
    'ODD=NAME': 'a=b',
    MULTI: 'line1\nline2',
    API_TOKEN: 'tok-9f8e7d6c',
  });
  await new Promise((r) => setTimeout(r, 200));
  t.has(
    await read(conf),
    { NODE_ROLE: 'data', ODD: 'NAME=a=b', MULTI: 'line1\nline2', API_TOKEN: 'tok-9f8e7d6c' },
    'this home only, the engine only (not another home, not a CLI tool), each variable exactly',
  );
  t.equal(redactText('x tok-9f8e7d6c y'), `x ${REDACTED} y`, 'a secret-named variable is a secret for every report');
  engineProcess(t, conf.searchHome, { NODE_ROLE: 'data' });
  await new Promise((r) => setTimeout(r, 200));
  t.equal(await read(conf), null, 'two engines of one home: which one runs is unknown');
});
