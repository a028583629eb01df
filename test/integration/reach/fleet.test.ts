/** The fleet session: hosts and cluster clients opened on first use under --forks, released or closed together. */
import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openFleet } from '../../../src/reach/fleet.ts';
import type { ReachDeps, ReachHost } from '../../../src/reach/index.ts';
import type { Inventory, Vars } from '../../../src/inventory/types.ts';
import type { Transport } from '../../../src/transport/types.ts';
import type { ClusterApi } from '../../../src/cluster/types.ts';

const inventory = (dir: string, hosts: Record<string, Vars>): Inventory => ({
  file: join(dir, 'inventory.yml'),
  hosts: new Map(Object.entries(hosts).map(([name, vars]) => [name, { name, groups: [], vars }])),
  groups: new Map(),
});

/** Fakes that count what was opened and closed, and how many connections were being opened at once. */
function world(o: { failClose?: boolean; failConnect?: (host: string) => boolean } = {}) {
  const seen = { opening: 0, most: 0, connects: [] as string[], closed: [] as string[], apis: [] as string[] };
  const tunnels: Array<string[] | undefined> = [];
  const deps: Partial<ReachDeps> = {
    async connect(cfg: ReachHost): Promise<Transport> {
      seen.connects.push(cfg.name);
      seen.most = Math.max(seen.most, ++seen.opening);
      await new Promise((r) => setTimeout(r, 5));
      seen.opening--;
      if (o.failConnect?.(cfg.name)) throw new Error(`${cfg.name}: refused`);
      return {
        host: cfg.name,
        exec: async () => ({ code: 0, stdout: '', stderr: '' }),
        readFile: async () => null,
        writeFileAtomic: async () => ({ changed: true }) as never,
        close: async () => {
          seen.closed.push(cfg.name);
          if (o.failClose) throw new Error('close failed');
        },
      };
    },
    api(cfg, opts): ClusterApi {
      seen.apis.push(cfg.apiUrl);
      tunnels.push(opts.tunnelHosts?.map((h) => h.name));
      return {
        url: cfg.apiUrl,
        request: async () => ({ statusCode: 200, body: {} }) as never,
        close: async () => {
          seen.closed.push(cfg.apiUrl);
          if (o.failClose) throw new Error('close failed');
        },
      };
    },
  };
  return { seen, tunnels, deps };
}

const TWO_CLUSTERS = {
  a1: { api_url: 'https://a:9200' },
  a2: { api_url: 'https://a:9200' },
  b1: { api_url: 'https://b:9200' },
  b2: { api_url: 'https://b:9200' },
  b3: { api_url: 'https://b:9200' },
};

/** A fleet of the one host a1 over the given fakes. */
const oneHost = (dir: string, deps: Partial<ReachDeps>) =>
  openFleet({ inventory: inventory(dir, { a1: {} }), hosts: ['a1'], access: {}, timeout: 5, env: {}, deps });

t.test('sessions open under --forks, each once; close closes every session and client, never throwing', async (t) => {
  const w = world({ failClose: true });
  const fleet = openFleet({
    inventory: inventory(t.testdir({}), TWO_CLUSTERS),
    hosts: Object.keys(TWO_CLUSTERS),
    access: {},
    timeout: 5,
    env: {},
    forks: 2,
    deps: w.deps,
  });
  t.same(
    fleet.clusters.map((c) => [c.apiUrl, c.hosts]),
    [
      ['https://a:9200', ['a1', 'a2']],
      ['https://b:9200', ['b1', 'b2', 'b3']],
    ],
  );
  await Promise.all([...Object.keys(TWO_CLUSTERS), 'a1', 'b1'].map((h) => fleet.transport(h)));
  t.equal(w.seen.most, 2, 'at most --forks connecting at once');
  t.same(w.seen.connects.sort(), ['a1', 'a2', 'b1', 'b2', 'b3'], 'one session per host');
  t.equal(fleet.api('https://a:9200'), fleet.api('https://a:9200'), 'one client per cluster');
  fleet.api('https://b:9200');
  await fleet.close();
  t.same(w.seen.closed.sort(), ['a1', 'a2', 'b1', 'b2', 'b3', 'https://a:9200', 'https://b:9200']);
});

t.test('closing a handed session releases the host: closed once, and the next use opens another', async (t) => {
  const w = world();
  const fleet = oneHost(t.testdir({}), w.deps);
  await (await fleet.transport('a1')).close();
  await fleet.close();
  t.same(w.seen.closed, ['a1'], 'not closed again with the fleet');
  await fleet.transport('a1');
  t.same(w.seen.connects, ['a1', 'a1']);
});

t.test('a failed connection: kept, or tried again by the next caller with retryFailed', async (t) => {
  for (const retryFailed of [false, true]) {
    let fail = true;
    const w = world({ failConnect: () => fail });
    const fleet = openFleet({
      inventory: inventory(t.testdir({}), { a1: {} }),
      hosts: ['a1'],
      access: {},
      timeout: 5,
      env: {},
      retryFailed,
      deps: w.deps,
    });
    await t.rejects(fleet.transport('a1'), /a1: refused/);
    fail = false;
    if (retryFailed) t.equal((await fleet.transport('a1')).host, 'a1', 'opened on the second try');
    else await t.rejects(fleet.transport('a1'), /a1: refused/, 'the first error is kept');
    await t.rejects(fleet.transport('zz'), /host zz is not selected/);
    await fleet.close();
  }
});

t.test('api_via_ssh: the client is tunnelled through the cluster’s SSH hosts, in order', async (t) => {
  const w = world();
  const hosts = { m1: { api_via_ssh: true }, m2: {}, m3: { ansible_connection: 'local' } };
  const fleet = openFleet({
    inventory: inventory(t.testdir({}), hosts),
    hosts: Object.keys(hosts),
    access: {},
    timeout: 5,
    env: {},
    deps: w.deps,
  });
  fleet.api(fleet.clusters[0]!.apiUrl);
  t.same(w.tunnels, [['m1', 'm2']]);
  t.throws(() => fleet.api('https://nowhere:9200'), /no inventory host belongs to https:\/\/nowhere:9200/);
  await fleet.close();
});

t.test('the access options are a parameter: --ssh-config applies to every host', async (t) => {
  const dir = t.testdir({});
  const config = join(dir, 'ssh_config');
  writeFileSync(config, 'Host web\n  HostName 10.9.8.7\n  Port 2222\n');
  const inv = inventory(dir, { web: {} });
  const open = (access: { sshConfigFile?: string }) =>
    openFleet({ inventory: inv, hosts: ['web'], access, timeout: 5, env: { HOME: dir }, deps: world().deps });
  t.match(open({ sshConfigFile: config }).hosts.get('web'), { address: '10.9.8.7', port: 2222 });
  t.match(open({}).hosts.get('web'), { address: 'web', port: 22 }, 'without it, the inventory alone');
});

t.test('a close its caller did not wait for is waited for by the fleet’s close', async (t) => {
  const w = world();
  let finish!: () => void;
  const slow = new Promise<void>((r) => (finish = r));
  const connect = w.deps.connect!;
  const deps: Partial<ReachDeps> = {
    ...w.deps,
    connect: async (cfg, o) => ({ ...(await connect(cfg, o)), close: () => slow }),
  };
  const fleet = oneHost(t.testdir({}), deps);
  void (await fleet.transport('a1')).close();
  let fleetClosed = false;
  const closing = fleet.close().then(() => (fleetClosed = true));
  await new Promise((r) => setTimeout(r, 50));
  t.equal(fleetClosed, false, 'still waiting for the session’s close');
  finish();
  await closing;
  t.equal(fleetClosed, true);
});
