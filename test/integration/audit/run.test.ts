import t from 'tap';
import { runAudit, type AuditDeps } from '../../../src/audit/run.ts';
import type { CheckResult, ClusterFacts } from '../../../src/model/index.ts';
import type { ClusterGroup, HostConfig, Inventory } from '../../../src/inventory/types.ts';
import { mapLimit } from '../../../src/transport/limit.ts';
import { clusterRoutes, fakeApi, nodeRow, plantHost } from '../../helpers/audit/fakes.ts';
import type { FakeApi } from '../../helpers/fake-api.ts';
import { fakeTransport, type FakeTransport } from '../../helpers/audit/local-sh.ts';

const inventory: Inventory = { file: 'inv.yml', hosts: new Map(), groups: new Map() };

/** Two clusters: a with hosts a1..aN, b with b1; a3 refuses connections. */
function world(root: string, n = 6) {
  const configs = new Map<string, HostConfig>();
  const rows: Record<string, ReturnType<typeof nodeRow>[]> = { A: [], B: [] };
  for (let i = 1; i <= n; i++) {
    const name = `a${i}`;
    configs.set(
      name,
      plantHost(
        root,
        name,
        { engineYml: `node.roles: [${i === 1 ? 'cluster_manager' : 'data'}]\n` },
        { address: `10.1.0.${i}`, apiUrl: 'https://A:9200' },
      ),
    );
    rows.A!.push(nodeRow(name, `10.1.0.${i}`, i === 1 ? 'cluster_manager' : 'data'));
  }
  configs.set(
    'b1',
    plantHost(
      root,
      'b1',
      { engineYml: 'node.roles: [cluster_manager, data]\n' },
      { address: '10.2.0.1', apiUrl: 'https://B:9200' },
    ),
  );
  rows.B!.push(nodeRow('b1', '10.2.0.1', 'cluster_manager,data', '*'));
  const apis = new Map<string, FakeApi>([
    ['https://A:9200', fakeApi('https://A:9200', clusterRoutes({ name: 'alpha', nodes: rows.A! }))],
    ['https://B:9200', fakeApi('https://B:9200', clusterRoutes({ name: 'beta', nodes: rows.B! }))],
  ]);
  const transports: FakeTransport[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const seen: ClusterFacts[] = [];
  const deps: AuditDeps = {
    now: Date.now,
    hostConfig: (_inv, name) => configs.get(name)!,
    clustersOf: (_inv, hosts): ClusterGroup[] => {
      const by = new Map<string, string[]>();
      for (const h of hosts) by.set(configs.get(h)!.apiUrl, [...(by.get(configs.get(h)!.apiUrl) ?? []), h]);
      return [...by].map(([apiUrl, hs]) => ({ apiUrl, hosts: hs }));
    },
    runChecks: (facts, only): CheckResult[] => {
      seen.push(facts);
      const ids = only ?? ['base-limit-document'];
      return ids.map((id, i) => ({
        id,
        order: i + 1,
        status: facts.name === 'alpha' ? 'fail' : 'pass',
        reason: 'r',
        findings: [],
        actions: [],
      }));
    },
    mapLimit,
    connect: async (cfg) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setImmediate(r));
      if (cfg.name === 'a3') {
        inFlight--;
        throw new Error('connect ECONNREFUSED');
      }
      const tr = fakeTransport(cfg.name, {});
      const close = tr.close.bind(tr);
      tr.close = async () => {
        inFlight--;
        await close();
      };
      transports.push(tr);
      return tr;
    },
    api: (cfg) => apis.get(cfg.apiUrl)!,
  };
  return { configs, apis, transports, deps, seen, max: () => maxInFlight };
}

t.test(
  'two clusters, one pass: report shape, one connection per host, forks respected, everything closed',
  async (t) => {
    const w = world(t.testdir({}));
    const hosts = [...w.configs.keys()];
    const progress: Array<[number, number]> = [];
    const r = await runAudit({
      inventory,
      hosts,
      forks: 2,
      timeout: 5,
      env: {},
      deps: w.deps,
      onProgress: (d, n) => progress.push([d, n]),
    });
    t.match(r, {
      tool: 'smdoctor',
      mode: 'audit',
      version: String,
      clusters: [
        { api_url: 'https://A:9200', name: 'alpha', checks: [{ id: 'base-limit-document', status: 'fail' }] },
        {
          api_url: 'https://B:9200',
          name: 'beta',
          nodes: [{ host: 'b1', address: '10.2.0.1', name: 'b1', roles: ['cluster_manager', 'data'], reachable: true }],
        },
      ],
      summary: { clusters: 2, hosts: 7, unreachable: 1, checks_failed: 1 },
    });
    t.ok(w.max() <= 2, `at most --forks hosts at once (saw ${w.max()})`);
    t.ok(w.max() >= 2, 'and it does run them in parallel');
    t.equal(w.transports.length, 6, 'one connection per reachable host');
    for (const tr of w.transports) {
      t.equal(tr.calls.length, 1, `${tr.host}: one batched command`);
      t.equal(tr.closed, 1, `${tr.host}: closed`);
    }
    for (const a of w.apis.values()) t.equal(a.closed, 1, `${a.url} closed`);
    t.same(progress.at(-1), [7, 7]);
    const a3 = r.clusters[0]!.nodes.find((n) => n.host === 'a3');
    t.match(a3, { reachable: false, address: '10.1.0.3' });
    t.match(r.clusters[0]!.notes, [{ host: 'a3', evidence: { kind: 'host-unreachable' } }]);
    t.same(JSON.parse(JSON.stringify(r)), r, 'plain serialisable data');
    t.equal(w.seen[0]!.hosts.length, 6, 'checks see every host of their cluster');
    t.equal(w.seen[0]!.nodes.find((n) => n.name === 'a1')?.host, 'a1');
  },
);

t.test('--check subset passes through to the checks', async (t) => {
  const w = world(t.testdir({}), 1);
  const r = await runAudit({
    inventory,
    hosts: ['a1'],
    forks: 20,
    timeout: 5,
    env: {},
    only: ['master-plugins', 'limits-index-replicas'],
    deps: w.deps,
  });
  t.same(
    r.clusters[0]!.checks.map((c) => c.id),
    ['master-plugins', 'limits-index-replicas'],
  );
});

t.test('opts.connect and opts.api win over deps', async (t) => {
  const w = world(t.testdir({}), 1);
  let connects = 0;
  const r = await runAudit({
    inventory,
    hosts: ['a1'],
    forks: 1,
    timeout: 5,
    env: {},
    deps: {
      ...w.deps,
      connect: async (cfg) => {
        connects++;
        return fakeTransport(cfg.name, {});
      },
      api: () => fakeApi('https://A:9200', {}, new Error('ECONNREFUSED')),
    },
  });
  t.equal(connects, 1);
  t.match(r.clusters[0]!.notes, [{ evidence: { kind: 'api-unreachable' } }]);
});
