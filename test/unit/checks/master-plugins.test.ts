import t from 'tap';
import { masterPlugins } from '../../../src/checks/index.ts';
import { cluster, nodeHost, specs, withNode, hostConfig, SM, type NodeSpec } from '../../helpers/checks/facts.ts';
import type { HostFacts } from '../../../src/model/index.ts';

const BIN = '/app/opensearch/bin';
const KS = `sudo -u opensearch ${BIN}/opensearch-keystore remove jobscheduler.email.pass`;

/** m1 runs `running`, its host changed by `over`. */
function fleet(running: string[], over: Partial<HostFacts> = {}, m1: Partial<NodeSpec> = {}) {
  const nodes = withNode('m1', { plugins: running, ...m1 });
  const hosts = nodes.filter((n) => n.host !== null).map((n) => (n.name === 'm1' ? nodeHost(n, over) : nodeHost(n)));
  return cluster({ nodes, hosts });
}

t.test('pass: plugins on data nodes only', async (t) => {
  t.match(masterPlugins.run(cluster()), { status: 'pass', findings: [], actions: [] });
});

t.test('all four plugins on a master: remove (dependents first), keystore entry, restart', async (t) => {
  const r = masterPlugins.run(fleet(SM));
  t.match(r, { id: 'master-plugins', order: 4, status: 'fail', reason: /master m1 carries/ });
  t.same(
    r.actions.map((a) => a.command),
    [
      `${BIN}/opensearch-plugin remove sm-job-scheduler-actions-incident`,
      `${BIN}/opensearch-plugin remove sm-job-scheduler-actions-mitre`,
      `${BIN}/opensearch-plugin remove sm-sigma`,
      `${BIN}/opensearch-plugin remove sm-job-scheduler`,
      KS,
      'systemctl restart opensearch',
    ],
  );
  t.same(
    r.actions.map((a) => a.type),
    ['remove-plugin', 'remove-plugin', 'remove-plugin', 'remove-plugin', 'remove-keystore-entry', 'restart-service'],
  );
  t.ok(r.actions.every((a) => a.host === 'm1' && a.status === 'planned'));
  t.equal(r.findings.filter((f) => f.kind === undefined).length, 5, 'four plugins and the keystore entry');
  t.notOk(r.actions[4].if_present, 'keystore listed it');
});

t.test('commands follow the host: become, engine user, folder names, unknown keystore', async (t) => {
  const cases = [
    {
      name: 'become',
      over: { config: hostConfig('m1', '10.0.0.1', { become: true }) },
      plugin: `sudo -n ${BIN}/opensearch-plugin remove sm-sigma`,
      ks: KS,
      restart: 'sudo -n systemctl restart opensearch',
    },
    {
      name: 'ssh user owns the keystore',
      over: { config: hostConfig('m1', '10.0.0.1', { user: 'opensearch' }) },
      plugin: `${BIN}/opensearch-plugin remove sm-sigma`,
      ks: `${BIN}/opensearch-keystore remove jobscheduler.email.pass`,
      restart: 'systemctl restart opensearch',
    },
    {
      name: 'other home and engine',
      over: {
        config: hostConfig('m1', '10.0.0.1', { searchHome: '/opt/es', engine: 'elasticsearch', engineUser: 'es' }),
      },
      plugin: '/opt/es/bin/elasticsearch-plugin remove sm-sigma',
      ks: 'sudo -u es /opt/es/bin/elasticsearch-keystore remove jobscheduler.email.pass',
      restart: 'systemctl restart elasticsearch',
    },
    {
      name: 'custom folder',
      over: { plugins: [{ folder: 'sigma-folder', name: 'sm-sigma' }] },
      plugin: `${BIN}/opensearch-plugin remove sigma-folder`,
      ks: KS,
      restart: 'systemctl restart opensearch',
    },
  ];
  for (const c of cases) {
    const r = masterPlugins.run(fleet(['sm-sigma'], c.over));
    t.same(
      r.actions.map((a) => a.command),
      [c.plugin, c.ks, c.restart],
      c.name,
    );
  }
  const unknown = masterPlugins.run(fleet(['sm-sigma'], { keystore: null }));
  t.match(unknown.actions[1], { type: 'remove-keystore-entry', command: KS, if_present: true });
  t.ok(unknown.findings.some((f) => /if present/.test(f.message)));
});

t.test('restart pending: disk and running disagree', async (t) => {
  const gone = masterPlugins.run(fleet(['sm-job-scheduler'], { plugins: [] }));
  t.match(gone, {
    status: 'fail',
    findings: [{ kind: 'restart-pending', message: /still runs sm-job-scheduler.*restart is pending/ }],
  });
  t.same(
    gone.actions.map((a) => a.type),
    ['remove-keystore-entry', 'restart-service'],
  );
  const waiting = masterPlugins.run(fleet([], { plugins: [{ folder: 'sm-sigma', name: 'sm-sigma' }] }));
  t.match(waiting, { status: 'fail', findings: [{ kind: 'restart-pending', message: /installed.*not running/ }] });
  t.same(
    waiting.actions.map((a) => a.type),
    ['remove-plugin', 'restart-service'],
    'keystore listed without the entry: not touched',
  );
});

t.test('keystore entry alone on a master: removed, no restart', async (t) => {
  const r = masterPlugins.run(fleet([], { keystore: ['jobscheduler.email.pass', 'keystore.seed'] }));
  t.match(r, { status: 'fail', reason: /keystore of master m1/ });
  t.same(
    r.actions.map((a) => a.type),
    ['remove-keystore-entry'],
  );
});

t.test('masters outside the inventory or unreachable', async (t) => {
  const nodes = specs().map((n) => (n.name === 'm2' ? { ...n, host: null, plugins: ['sm-sigma'] } : n));
  t.match(masterPlugins.run(cluster({ nodes })), {
    status: 'fail',
    actions: [],
    findings: [{ message: /m2.*runs sm-sigma.*not in the inventory/ }],
  });
  t.match(
    masterPlugins.run(cluster({ nodes: withNode('m2', { host: null }) })),
    { status: 'pass' },
    '_cat/plugins decides',
  );
  t.match(masterPlugins.run(fleet(['sm-sigma'], { reachable: false, error: 'timeout' })), {
    status: 'fail',
    actions: [],
    findings: [{ message: /unreachable: timeout/ }],
  });
  t.match(masterPlugins.run(cluster({ api: { reachable: false, error: 'ECONNREFUSED' } })), {
    status: 'error',
    reason: /ECONNREFUSED/,
  });
});

t.test(
  'commands quote what the shell would otherwise read: a hostile plugin folder, a search_home with a space',
  async (t) => {
    const home = '/opt/search home';
    const r = masterPlugins.run(
      fleet(['sm-sigma'], {
        config: hostConfig('m1', '10.0.0.1', { searchHome: home }),
        plugins: [{ folder: 'sm-sigma;touch pwned', name: 'sm-sigma', version: '2.11.0' }],
      }),
    );
    t.same(
      r.actions.map((a) => a.command),
      [
        `'${home}/bin/opensearch-plugin' remove 'sm-sigma;touch pwned'`,
        `sudo -u opensearch '${home}/bin/opensearch-keystore' remove jobscheduler.email.pass`,
        'systemctl restart opensearch',
      ],
    );
  },
);
