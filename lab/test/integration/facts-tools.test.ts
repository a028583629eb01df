/** OpenSearch's node command-line tools and configuration files, as the lab models them: its tools and start-up rules. */
import t from 'tap';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keystoreFile, keystoreTool, pluginTool } from '../../src/tools.ts';
import { flattenSettings, loadDashboardsHosts, loadEngineFiles } from '../../src/nodefiles.ts';

const run = (bin: string, args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(bin, args, (err, stdout, stderr) =>
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });

/** A search home with both tools in bin/ (no JVM delay). */
function home(plugins: string[], keystore: Record<string, string> | null) {
  const dir = t.testdir({
    bin: {},
    config: keystore ? { 'opensearch.keystore': keystoreFile(keystore) } : {},
    plugins: Object.fromEntries(plugins.map((p) => [p, { 'plugin-descriptor.properties': `name=${p}\nversion=1\n` }])),
  });
  const tool = (name: string, text: string) => {
    writeFileSync(join(dir, 'bin', name), text);
    chmodSync(join(dir, 'bin', name), 0o755);
    return join(dir, 'bin', name);
  };
  return {
    dir,
    plugin: tool('opensearch-plugin', pluginTool('opensearch', join(dir, 'no-delay'))),
    keystore: tool('opensearch-keystore', keystoreTool('opensearch', join(dir, 'no-delay'))),
  };
}

t.test('opensearch-plugin list and remove', async (t) => {
  const h = home(['sm-sigma', 'analysis-icu', 'sm-job-scheduler', 'Zeta'], null);
  t.same(
    await run(h.plugin, ['list']),
    { code: 0, stdout: 'Zeta\nanalysis-icu\nsm-job-scheduler\nsm-sigma\n', stderr: '' },
    'sorted, one a line, no header',
  );
  t.same(await run(h.plugin, ['remove', 'sm-sigma']), { code: 0, stdout: '-> removing [sm-sigma]...\n', stderr: '' });
  t.notOk(existsSync(join(h.dir, 'plugins', 'sm-sigma')), 'the folder is gone');
  const unknown = await run(h.plugin, ['remove', 'sm-sigma']);
  t.match(unknown, { code: 78, stdout: '' });
  t.match(unknown.stderr, /^ERROR: plugin \[sm-sigma\] not found; /);
  t.same(await run(home([], null).plugin, ['list']), { code: 0, stdout: '', stderr: '' }, 'no plugins: no output');
});

t.test('opensearch-keystore list and remove', async (t) => {
  const h = home([], { 'keystore.seed': 's', 'jobscheduler.email.pass': 'p', 'a.b': 'c' });
  t.same(
    await run(h.keystore, ['list']),
    { code: 0, stdout: 'a.b\njobscheduler.email.pass\nkeystore.seed\n', stderr: '' },
    'sorted, keystore.seed included',
  );
  t.same(
    await run(h.keystore, ['remove', 'jobscheduler.email.pass']),
    { code: 0, stdout: '', stderr: '' },
    'remove is silent',
  );
  t.same(await run(h.keystore, ['list']), { code: 0, stdout: 'a.b\nkeystore.seed\n', stderr: '' });
  t.same(await run(h.keystore, ['remove', 'jobscheduler.email.pass']), {
    code: 78,
    stdout: '',
    stderr: 'ERROR: Setting [jobscheduler.email.pass] does not exist in the keystore.\n',
  });
  const none = home([], null);
  t.match(await run(none.keystore, ['list']), { code: 65, stdout: '' }, 'missing keystore');
  t.match(await run(none.keystore, ['remove', 'x']), { code: 65 });
});

t.test('opensearch.yml: roles, legacy node.master, flat and nested, a key twice', async (t) => {
  const load = (yml: string) =>
    loadEngineFiles(t.testdir({ config: { 'opensearch.yml': yml }, plugins: {} }), 'opensearch');
  const cases: Array<[string, string[] | RegExp]> = [
    ['node.roles: [cluster_manager, data, ingest]\n', ['cluster_manager', 'data', 'ingest']],
    ['node.roles: []\n', []],
    ['node:\n  roles:\n    - search\n', ['search']],
    ['cluster.name: c\n', ['cluster_manager', 'data', 'ingest', 'remote_cluster_client']],
    ['node.master: true\n', ['data', 'ingest', 'master', 'remote_cluster_client']],
    ['node.master: false\n', ['data', 'ingest', 'remote_cluster_client']],
    ['node.master: true\nnode.data: false\nnode.ingest: false\n', ['master', 'remote_cluster_client']],
    ['node.master: true\nnode.roles: [data]\n', /legacy role setting \[node\.master\]/],
    ['node:\n  master: true\n  roles: [data]\n', /legacy role setting \[node\.master\]/],
    ['node.roles: [data]\nnode:\n  roles: [ingest]\n', /duplicate settings key \[node\.roles\]/],
  ];
  for (const [yml, want] of cases) {
    const r = await load(yml);
    if (want instanceof RegExp) t.match(r, { ok: false, reason: want }, yml);
    else t.same(r.ok && r.value.roles, want, yml);
  }
  const attrs = await load('node.attr.a: true\nnode:\n  attr:\n    b: hot\n');
  t.same(attrs.ok && attrs.value.attrs, { a: 'true', b: 'hot' }, 'node.attr.* flat and nested');
  t.match(flattenSettings('node.attr.a: 1\nnode.attr.a: 2\n'), { ok: false });
});

t.test('plugin descriptors: every documented key, the name comes from the descriptor', async (t) => {
  const props = [
    'name=sm-sigma',
    'description=Sigma rules',
    'version=2.11.0.0',
    'java.version=11',
    'classname=org.x.SigmaPlugin',
    'opensearch.version=2.11.0',
    'extended.plugins=sm-job-scheduler',
    'custom.foldername=sigma',
  ].join('\n');
  const dir = t.testdir({
    config: { 'opensearch.yml': 'cluster.name: c\n' },
    plugins: { sigma: { 'plugin-descriptor.properties': `# c\n${props}\n` } },
  });
  t.match(await loadEngineFiles(dir, 'opensearch'), {
    ok: true,
    value: { plugins: [{ name: 'sm-sigma', version: '2.11.0.0' }] },
  });
});

t.test('opensearch_dashboards.yml: opensearch.hosts one string or a non-empty array, default localhost', async (t) => {
  const cases: Array<[string, string[] | RegExp]> = [
    ['opensearch.hosts: https://a:9200\n', ['https://a:9200']],
    ['opensearch.hosts: [https://a:9200, https://b:9200]\n', ['https://a:9200', 'https://b:9200']],
    ['opensearch:\n  hosts: https://a:9200\n', ['https://a:9200']],
    ['opensearch:\n  hosts:\n    - https://b:9200\n', ['https://b:9200']],
    ['server.port: 5601\n', ['http://localhost:9200']],
    ['opensearch.hosts: []\n', /at least 1/],
  ];
  for (const [yml, want] of cases) {
    const r = await loadDashboardsHosts(t.testdir({ config: { 'opensearch_dashboards.yml': yml } }), 'opensearch');
    if (want instanceof RegExp) t.match(r, { ok: false, reason: want }, yml);
    else t.same(r, { ok: true, value: want }, yml);
  }
});
