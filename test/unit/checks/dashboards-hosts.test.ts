import t from 'tap';
import { applyPatch } from 'diff';
import { dashboardsHosts } from '../../../src/checks/index.ts';
import { readKey } from '../../../src/yamledit/index.ts';
import { cluster, dashboardsYml, specs, webHost, hostConfig } from '../../helpers/checks/facts.ts';
import type { HostFacts } from '../../../src/model/index.ts';

const PATH = '/app/opensearch-dashboards/config/opensearch_dashboards.yml';
const D1 = 'https://10.0.0.4:9200';
const D2 = 'https://10.0.0.5:9200';
const M1 = 'https://10.0.0.1:9200';

const withText = (text: string, over: Partial<HostFacts> = {}) =>
  cluster({ web: [webHost('w1', '10.0.0.9', [], { dashboardsYml: { path: PATH, text }, ...over })] });

t.test('pass: only data nodes listed, or no web host', async (t) => {
  t.match(dashboardsHosts.run(cluster()), { status: 'pass', findings: [], actions: [] });
  t.match(dashboardsHosts.run(withText(`opensearch.hosts: "${D1}"\n`)), { status: 'pass', actions: [] });
  t.match(dashboardsHosts.run(cluster({ web: [] })), { status: 'pass', reason: /no web-application host/ });
});

t.test('masters listed: keep only data nodes, keep the style, restart the web service', async (t) => {
  const cases = [
    { name: 'block list', text: dashboardsYml([M1, D1, D2]), value: [D1, D2], reads: [D1, D2] },
    { name: 'flow list', text: `opensearch.hosts: ["${D1}", "${M1}"] # both\n`, value: [D1], reads: [D1] },
    { name: 'nested', text: `opensearch:\n  hosts:\n    - ${M1}\n    - ${D2}\n`, value: [D2], reads: [D2] },
    {
      name: 'by node name',
      text: `opensearch.hosts: [https://m2:9200, https://d1:9200]\n`,
      value: ['https://d1:9200'],
      reads: ['https://d1:9200'],
    },
    {
      name: 'by inventory host',
      text: `opensearch.hosts: [https://m3.example:9200, ${D1}]\n`,
      value: [D1],
      reads: [D1],
      hostName: 'm3.example',
    },
  ];
  for (const c of cases) {
    const facts = withText(c.text);
    if (c.hostName) facts.hosts.find((h) => h.host === 'm3')!.config.address = c.hostName;
    const r = dashboardsHosts.run(facts);
    t.match(r, { status: 'fail', reason: /opensearch.hosts on w1 lists master nodes/ }, c.name);
    t.match(
      r.findings,
      [{ host: 'w1', message: /lists master m\d/, evidence: { path: PATH, line: Number } }],
      `${c.name}: finding`,
    );
    t.match(
      r.actions,
      [
        { type: 'set-hosts', host: 'w1', path: PATH, key: 'opensearch.hosts', value: c.value, status: 'planned' },
        {
          type: 'restart-service',
          host: 'w1',
          service: 'opensearch-dashboards',
          command: 'systemctl restart opensearch-dashboards',
        },
      ],
      `${c.name}: actions`,
    );
    const edited = applyPatch(c.text, r.actions[0].diff!);
    t.type(edited, 'string', `${c.name}: diff applies`);
    t.same(readKey(edited as string, 'opensearch.hosts').found?.value, c.reads, `${c.name}: reads back`);
  }
});

t.test('a string of one master: trimming would leave nothing → error, no edit', async (t) => {
  const r = dashboardsHosts.run(withText(`opensearch.hosts: "${M1}"\n`));
  t.match(r, { status: 'error', reason: /would leave no host; data-only nodes: d1 \(10\.0\.0\.4\), d2/, actions: [] });
  // The default (key absent) is localhost: a web host that is itself a master lists a master.
  const nodes = specs();
  const facts = cluster({ nodes, web: [] });
  const m1 = facts.hosts.find((h) => h.host === 'm1')!;
  Object.assign(m1, { isWeb: true, dashboardsYml: { path: PATH, text: 'server.port: 5601\n' } });
  t.match(dashboardsHosts.run(facts), {
    status: 'error',
    findings: [{ message: /default, key absent/ }, { kind: 'unverified' }],
    actions: [],
  });
});

t.test('unmatched URLs are kept with a finding; non-data nodes are dropped', async (t) => {
  const facts = withText(
    `opensearch.hosts:\n  - ${M1}\n  - https://lb.example:9200\n  - https://10.0.0.6:9200\n  - ${D1}\n`,
  );
  facts.nodes.push({ name: 'c1', ip: '10.0.0.6', roles: ['ingest'], isMaster: false });
  const r = dashboardsHosts.run(facts);
  t.match(r, {
    status: 'fail',
    actions: [{ type: 'set-hosts', value: ['https://lb.example:9200', D1] }, { type: 'restart-service' }],
  });
  t.ok(
    r.findings.some((f) => f.kind === 'note' && /lb\.example.*matches no running node/.test(f.message)),
    'unmatched',
  );
  t.ok(
    r.findings.some((f) => f.kind === 'note' && /10\.0\.0\.6.*c1 has no data role.*dropped/.test(f.message)),
    'dropped',
  );
  // Unmatched only, no master: nothing to do.
  t.match(dashboardsHosts.run(withText('opensearch.hosts: [https://lb.example:9200]\n')), {
    status: 'pass',
    actions: [],
    findings: [{ kind: 'note' }],
  });
});

t.test('a master that also holds data is still a master', async (t) => {
  const nodes = specs().map((n) =>
    n.name === 'm1' ? { ...n, roles: ['cluster_manager', 'data', 'ingest', 'remote_cluster_client'] } : n,
  );
  const r = dashboardsHosts.run(cluster({ nodes, web: [webHost('w1', '10.0.0.9', [M1, D1])] }));
  t.match(r, { status: 'fail', actions: [{ value: [D1] }] });
});

t.test('undecidable web hosts: error', async (t) => {
  t.match(dashboardsHosts.run(withText('x: 1', { reachable: false, error: 'auth failed' })), {
    status: 'error',
    reason: /w1 is unreachable: auth failed/,
  });
  t.match(dashboardsHosts.run(withText('opensearch.hosts: [a\n')), {
    status: 'error',
    reason: /cannot be parsed/,
    findings: [{ message: /opensearch_dashboards.yml:2:1/ }],
  });
  t.match(dashboardsHosts.run(cluster({ web: [webHost('w1', '10.0.0.9', [], { dashboardsYml: null })] })), {
    status: 'error',
    reason: /opensearch_dashboards.yml was not found on host w1/,
  });
});

t.test('the engine name shapes key and service', async (t) => {
  const config = hostConfig('w1', '10.0.0.9', {
    engine: 'elasticsearch',
    restartCommand: 'systemctl restart {service}.service',
  });
  const text = `elasticsearch.hosts: [${M1}, ${D1}]\nopensearch.hosts: [${M1}]\n`;
  const r = dashboardsHosts.run(
    cluster({ web: [webHost('w1', '10.0.0.9', [], { config, dashboardsYml: { path: '/x.yml', text } })] }),
  );
  t.match(r.actions, [
    { key: 'elasticsearch.hosts', value: [D1] },
    { service: 'elasticsearch-dashboards', command: 'systemctl restart elasticsearch-dashboards.service' },
  ]);
});

t.test('${VAR} entries: judged by the web application environment, never as the literal', async (t) => {
  const text = 'opensearch.hosts: ["${OPENSEARCH_URL}", "${DATA_URL}"]\n';
  // resolved to a master: the entry is reported and the file keeps what is written
  const r = dashboardsHosts.run(withText(text, { webEnv: { OPENSEARCH_URL: M1, DATA_URL: D1 } }));
  t.match(r, { status: 'fail' });
  t.match(r.findings, [{ message: /lists master m1 .*as \$\{OPENSEARCH_URL\} \(https:\/\/10\.0\.0\.1:9200\)/ }]);
  t.match(r.actions, [{ type: 'set-hosts', value: ['${DATA_URL}'] }]);
  // resolved to data nodes: passes
  t.match(dashboardsHosts.run(withText(text, { webEnv: { OPENSEARCH_URL: D2, DATA_URL: D1 } })), {
    status: 'pass',
    findings: [],
  });
  // the environment not read: unknown, not "matches no running node"
  for (const over of [{}, { webEnv: null }]) {
    const u = dashboardsHosts.run(withText(text, over));
    t.not(u.status, 'pass', 'not judged');
    t.notMatch(JSON.stringify(u.findings), /matches no running node/);
    t.match(u.findings, [
      { kind: 'unverified', message: /\$\{OPENSEARCH_URL\} depends on the web application's environment/ },
    ]);
    t.same(u.actions, []);
  }
  // set nowhere: the application would not start
  const missing = dashboardsHosts.run(withText(text, { webEnv: { DATA_URL: D1 } }));
  t.match(missing.findings, [{ kind: 'unverified', message: /OPENSEARCH_URL is not set/ }]);
  // a value holding ${…} is taken as it is (one pass), never resolved again
  const twice = dashboardsHosts.run(withText('opensearch.hosts: ["${A}"]\n', { webEnv: { A: '${B}', B: M1 } }));
  t.notMatch(JSON.stringify(twice.findings), /master/);
});

t.test('${VAR} resolved to a URL with a password: the password is not shown', async (t) => {
  const r = dashboardsHosts.run(
    withText('opensearch.hosts: ["${U}", "' + D1 + '"]\n', { webEnv: { U: 'https://admin:s3cret-pw@10.0.0.1:9200' } }),
  );
  t.match(r.findings, [{ message: /lists master m1/ }]);
  t.notMatch(JSON.stringify(r), /s3cret-pw/);
});
