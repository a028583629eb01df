/**
 * Memory: the clusters' REST reads are bounded to the clusters whose hosts can be in flight, and the next one. Each
 * read holds 10 TLS connections whose native memory the allocator keeps; all clusters at once was a quarter of the
 * peak RSS of a 1,000-host audit.
 */
import t from 'tap';
import { apiReadsAtOnce, gatherAll } from '../../../src/audit/gather.ts';
import { mapLimit } from '../../../src/transport/limit.ts';
import type { ClusterApi } from '../../../src/cluster/types.ts';
import type { ClusterGroup } from '../../../src/inventory/types.ts';
import { clusterRoutes, fakeApi, nodeRow, plantHost } from '../../helpers/audit/fakes.ts';
import { fakeTransport } from '../../helpers/audit/local-sh.ts';

const master = { engineYml: 'node.name: m1\nnode.roles: [cluster_manager]\n' };
const groupsOf = (sizes: number[]): ClusterGroup[] =>
  sizes.map((n, c) => ({ apiUrl: `https://c${c}:9200`, hosts: Array.from({ length: n }, (_, i) => `c${c}-h${i}`) }));

t.test('clusters read at once: those whose hosts fit in --forks, and the next one', async (t) => {
  const cases: [string, number[], number, number][] = [
    ['40 clusters of 25, forks 20', Array(40).fill(25), 20, 2],
    ['10 clusters of 10, forks 20', Array(10).fill(10), 20, 3],
    ['100 single-node clusters, forks 20', Array(100).fill(1), 20, 21],
    ['mixed sizes count the smallest', [25, 3, 25], 6, 3],
    ['never more than there are clusters', [3, 3], 100, 2],
    ['forks 1', Array(5).fill(4), 1, 2],
    ['no clusters', [], 20, 1],
    ['the host cap, one host per cluster', Array(100_000).fill(1), 20, 21],
  ];
  for (const [what, sizes, forks, want] of cases) t.equal(apiReadsAtOnce(groupsOf(sizes), forks), want, what);
});

t.test('gatherAll reads at most that many clusters at once, in the hosts order, and still gathers all', async (t) => {
  const root = t.testdir({});
  const groups = groupsOf(Array(6).fill(4));
  const configs = new Map(
    groups.flatMap((g, c) =>
      g.hosts.map((h, i) => [h, plantHost(root, h, master, { address: `10.0.${c}.${i + 1}`, apiUrl: g.apiUrl })]),
    ),
  );
  const inFlight = new Map<string, number>();
  const started: string[] = [];
  let most = 0;
  const apis = new Map<string, ClusterApi>(
    groups.map((g, c) => {
      const answers = fakeApi(
        g.apiUrl,
        clusterRoutes({ nodes: [nodeRow(`c${c}-h0`, `10.0.${c}.1`, 'cluster_manager')] }),
      );
      const api: ClusterApi = {
        ...answers,
        request: async (req) => {
          if (!inFlight.has(g.apiUrl)) started.push(g.apiUrl);
          inFlight.set(g.apiUrl, (inFlight.get(g.apiUrl) ?? 0) + 1);
          most = Math.max(most, inFlight.size);
          await new Promise((r) => setTimeout(r, 5));
          const n = inFlight.get(g.apiUrl)! - 1;
          if (n) inFlight.set(g.apiUrl, n);
          else inFlight.delete(g.apiUrl);
          return answers.request(req);
        },
      };
      return [g.apiUrl, api];
    }),
  );
  const forks = 4;
  const gathered = await gatherAll({
    groups,
    configs,
    apis,
    connect: async (cfg) => fakeTransport(cfg.name, master),
    mapLimit,
    forks,
    timeout: 10,
  });
  t.equal(most, apiReadsAtOnce(groups, forks), 'clusters with REST reads in flight at once');
  t.equal(most, 2);
  t.same(
    started,
    groups.map((g) => g.apiUrl),
    'each cluster read once, in the order of its hosts',
  );
  t.same(
    gathered.map((c) => [c.api.reachable, c.api.nodes.length, c.hosts.filter((h) => h.reachable).length]),
    Array(6).fill([true, 1, 4]),
    'every cluster and every host gathered',
  );
});
