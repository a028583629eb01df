import t from 'tap';
import { join } from 'node:path';
import { flattenSettings, loadEngineFiles, loadDashboardsHosts } from '../../src/nodefiles.ts';
import { keystoreFile } from '../../src/tools.ts';
import { engineYml, dashboardsYml } from '../../src/nodetree.ts';
import type { LabHost } from '../../src/layout.ts';

const host = { ip: '127.9.9.1', searchHome: '/x' } as LabHost;
const desc = (name: string) => ({ 'plugin-descriptor.properties': `# c\nname=${name}\nversion=1.0\n` });

t.test('flat and nested YAML flatten to the same settings; a key twice is an error', async (t) => {
  const cases: Array<[string, Record<string, unknown> | RegExp]> = [
    ['node.attr.x: true\nnode.roles: [data]\n', { 'node.attr.x': true, 'node.roles': ['data'] }],
    ['node:\n  # c\n  attr:\n    x: true\n  roles: [data]\n', { 'node.attr.x': true, 'node.roles': ['data'] }],
    ['node.attr.x: true\nnode:\n  attr:\n    x: false\n', /duplicate settings key \[node\.attr\.x\]/],
    ['node.attr.x: true\nnode.attr.x: false\n', /Failed to load settings/],
    ['node.roles: [data\n', /Failed to load settings/],
  ];
  for (const [text, want] of cases) {
    const r = flattenSettings(text);
    if (want instanceof RegExp) t.match(r, { ok: false, reason: want }, text);
    else t.same(r.ok && Object.fromEntries(r.value), want, text);
  }
});

t.test('a node loads roles, attrs and plugins from its files, or says why it cannot start', async (t) => {
  const n = (yml: string, plugins: Record<string, Record<string, string>>, ks: string[]) =>
    t.testdir({
      config: {
        'opensearch.yml': yml,
        'opensearch.keystore': keystoreFile(Object.fromEntries(['keystore.seed', ...ks].map((k) => [k, 'v']))),
      },
      plugins,
    });
  const flat = engineYml('opensearch', 'c', host, {
    name: 'm1',
    roles: ['cluster_manager'],
    attrs: { node_with_sme: false },
    yml_style: 'flat',
  });
  const nested = engineYml('opensearch', 'c', host, {
    name: 'd1',
    roles: ['data', 'ingest'],
    attrs: { node_with_sme: true },
    yml_style: 'nested',
  });
  t.match(await loadEngineFiles(n(flat, {}, []), 'opensearch'), {
    ok: true,
    value: { roles: ['cluster_manager'], attrs: { node_with_sme: 'false' }, plugins: [] },
  });
  t.match(
    await loadEngineFiles(
      n(nested, { 'sm-job-scheduler': desc('sm-job-scheduler') }, ['jobscheduler.email.pass']),
      'opensearch',
    ),
    {
      ok: true,
      value: {
        roles: ['data', 'ingest'],
        attrs: { node_with_sme: 'true' },
        plugins: [{ name: 'sm-job-scheduler', version: '1.0' }],
      },
    },
  );
  t.match(await loadEngineFiles(n(nested, {}, ['jobscheduler.email.pass']), 'opensearch'), {
    ok: false,
    reason: /unknown secure setting \[jobscheduler\.email\.pass\]/,
  });
  t.match(await loadEngineFiles(n(nested, { broken: {} }, []), 'opensearch'), {
    ok: false,
    reason: /plugin descriptor/,
  });
  t.match(await loadEngineFiles(n('node.master: true\nnode.roles: [data]\n', {}, []), 'opensearch'), {
    ok: false,
    reason: /legacy role setting/,
  });
  t.match(await loadEngineFiles(n('cluster.name: c\n', {}, []), 'opensearch'), {
    ok: true,
    value: { roles: ['cluster_manager', 'data', 'ingest', 'remote_cluster_client'] },
  });
  t.match(await loadEngineFiles(join(t.testdir({}), 'none'), 'opensearch'), {
    ok: false,
    reason: /Unable to read config file/,
  });
});

t.test('web hosts: opensearch.hosts as a string or a list', async (t) => {
  const dir = t.testdir({
    one: { config: { 'opensearch_dashboards.yml': dashboardsYml('opensearch', 'w', 'https://a:9200') } },
    list: {
      config: { 'opensearch_dashboards.yml': dashboardsYml('opensearch', 'w', ['https://a:9200', 'https://b:9200']) },
    },
    none: { config: { 'opensearch_dashboards.yml': 'server.port: 5601\n' } },
  });
  const [one, list, none] = ['one', 'list', 'none'].map((d) => join(dir, d)) as [string, string, string];
  t.same(await loadDashboardsHosts(one, 'opensearch'), { ok: true, value: ['https://a:9200'] });
  t.same(await loadDashboardsHosts(list, 'opensearch'), { ok: true, value: ['https://a:9200', 'https://b:9200'] });
  t.same(await loadDashboardsHosts(none, 'opensearch'), { ok: true, value: ['http://localhost:9200'] });
});

t.test('a node resolves ${VAR} from its environment as the engine does, or refuses to start', async (t) => {
  const dir = (yml: string) => t.testdir({ config: { 'opensearch.yml': yml }, plugins: {} });
  const yml = "node.roles: ['${NODE_ROLE}']\nnode.attr.zone: ${ZONE:a}\nnode.attr.gone: ${EMPTY}\n";
  const loaded = await loadEngineFiles(dir(yml), 'opensearch', { NODE_ROLE: 'data', EMPTY: '' });
  t.match(loaded, { ok: true, value: { roles: ['data'], attrs: { zone: 'a' } } });
  t.notOk(loaded.ok && Object.hasOwn(loaded.value.attrs, 'gone'), 'a value resolved to nothing is no setting');
  t.same(await loadEngineFiles(dir(yml), 'opensearch', {}), {
    ok: false,
    reason: "java.lang.IllegalArgumentException: Could not resolve placeholder 'NODE_ROLE'",
  });
});
