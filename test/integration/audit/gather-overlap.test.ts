/**
 * Latency: the hosts' reads do not wait for the clusters' REST reads, and a host frees its fork slot when its
 * command has exited, not when the server has said goodbye. Each is one or more round trips per host on a far network.
 */
import t from 'tap';
import { gatherAll } from '../../../src/audit/gather.ts';
import { gatherHost } from '../../../src/audit/gather-host.ts';
import { emptyApiFacts } from '../../../src/audit/gather-api.ts';
import { mapLimit } from '../../../src/transport/limit.ts';
import type { ClusterApi } from '../../../src/cluster/types.ts';
import { clusterRoutes, fakeApi, nodeRow, plantHost } from '../../helpers/audit/fakes.ts';
import { fakeTransport } from '../../helpers/audit/local-sh.ts';

const master = { engineYml: 'node.name: m1\nnode.roles: [cluster_manager]\n' };

t.test('the hosts are read while the cluster API has not answered yet; the report waits for both', async (t) => {
  const root = t.testdir({});
  const hosts = ['h1', 'h2', 'h3'].map((n, i) =>
    plantHost(root, n, master, { address: `10.0.0.${i + 1}`, apiUrl: 'https://A:9200' }),
  );
  const answers = fakeApi('https://A:9200', clusterRoutes({ nodes: [nodeRow('h1', '10.0.0.1', 'cluster_manager')] }));
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  // every REST request waits until the test has seen what the hosts did meanwhile
  const api: ClusterApi = { ...answers, request: async (req) => (await held, answers.request(req)) };
  const reads: string[] = [];
  const gathering = gatherAll({
    groups: [{ apiUrl: 'https://A:9200', hosts: hosts.map((h) => h.name) }],
    configs: new Map(hosts.map((h) => [h.name, h])),
    apis: new Map([['https://A:9200', api]]),
    connect: async (cfg) => {
      const tr = fakeTransport(cfg.name, master);
      const exec = tr.exec.bind(tr);
      tr.exec = async (command, opts) => {
        const r = await exec(command, opts);
        reads.push(cfg.name);
        return r;
      };
      return tr;
    },
    mapLimit,
    forks: 3,
    timeout: 10,
  });
  // three local shells: on a loaded machine they may take seconds, and the REST answers wait for the test anyway
  const until = Date.now() + 60_000;
  while (reads.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  t.same(reads.sort(), ['h1', 'h2', 'h3'], 'every host read its files before any REST answer came');
  release();
  const [cluster] = await gathering;
  t.equal(cluster!.api.nodes.length, 1, 'the API facts are in the result');
  t.same(
    cluster!.hosts.map((h) => [h.host, h.reachable]),
    [
      ['h1', true],
      ['h2', true],
      ['h3', true],
    ],
  );
});

t.test('a host is done when its command has exited: the close is started, not waited for', async (t) => {
  const conf = plantHost(t.testdir({}), 'h1', master);
  const tr = fakeTransport('h1', master);
  let closeCalled = false;
  // a server that never confirms the close: before, the host (and its fork slot) waited for it
  tr.close = () => ((closeCalled = true), new Promise<void>(() => undefined));
  const outcome = await Promise.race([
    gatherHost(conf, async () => tr, emptyApiFacts(true), 10).then((f) => f.reachable),
    // the close never settles: only a wait for it lasts this long (a local shell may take seconds on a loaded machine)
    new Promise<string>((r) => setTimeout(() => r('still waiting for the close'), 60_000).unref()),
  ]);
  t.equal(outcome, true, 'the host facts came back');
  t.ok(closeCalled, 'the close was started');
});
