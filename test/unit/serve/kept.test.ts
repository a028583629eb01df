/** serve's kept connections, on fakes: one connection per host across cycles, a broken one dropped and reopened after a backoff. */
import t from 'tap';
import { TransportError } from '../../../src/base/errors.ts';
import { backoffMs, keptReach } from '../../../src/serve/kept.ts';
import type { ReachHost } from '../../../src/reach/index.ts';
import type { Transport } from '../../../src/transport/types.ts';
import type { ClusterApi } from '../../../src/cluster/types.ts';

const host = (name: string, address = '10.0.0.1'): ReachHost =>
  ({ name, address, apiUrl: 'https://c:9200' }) as ReachHost;

function fakes(o: { fail?: Set<string>; brokenExec?: Set<string> } = {}) {
  const opened: string[] = [];
  const closed: string[] = [];
  const apis: string[] = [];
  const connect = async (cfg: ReachHost): Promise<Transport> => {
    opened.push(cfg.name);
    if (o.fail?.has(cfg.name)) throw new TransportError('CONNECT', cfg.name, 'connection refused');
    return {
      host: cfg.name,
      exec: async () => {
        if (o.brokenExec?.has(cfg.name)) throw new TransportError('CONNECT', cfg.name, 'connection reset');
        return { code: 0, stdout: 'ok', stderr: '' };
      },
      readFile: async () => null,
      writeFileAtomic: async () => ({ backup: null }),
      close: async () => void closed.push(cfg.name),
    };
  };
  const api = (cfg: ReachHost): ClusterApi => {
    apis.push(cfg.apiUrl);
    return {
      url: cfg.apiUrl,
      request: async () => ({ statusCode: 200, body: {} }) as never,
      close: async () => undefined,
    };
  };
  return { opened, closed, apis, connect, api };
}

t.test('a host is connected once across cycles; the audit closing it keeps the connection', async (t) => {
  const f = fakes();
  const kept = keptReach(f);
  for (let cycle = 0; cycle < 5; cycle++)
    for (const h of ['a', 'b']) {
      const tr = await kept.deps.connect(host(h), { timeout: 5 });
      t.equal((await tr.exec('true')).stdout, 'ok');
      await tr.close();
      kept.deps.api(host(h), { requestTimeout: 30_000 }).close();
    }
  t.same(f.opened, ['a', 'b'], 'two connections for ten audits of two hosts');
  t.same(f.closed, []);
  t.same(f.apis, ['https://c:9200'], 'one REST client for the cluster');
  await kept.close();
  t.same(f.closed.sort(), ['a', 'b'], 'closed when serve ends');
});

t.test('a connection that breaks is dropped and opened again by the next cycle', async (t) => {
  const broken = new Set(['a']);
  const f = fakes({ brokenExec: broken });
  const kept = keptReach(f);
  const tr = await kept.deps.connect(host('a'), { timeout: 5 });
  await t.rejects(tr.exec('true'), { name: 'TransportError' });
  t.same(f.closed, ['a'], 'the broken connection is closed');
  t.equal(kept.links.get('a')?.connected, false);
  broken.clear();
  const again = await kept.deps.connect(host('a'), { timeout: 5 });
  t.equal((await again.exec('true')).stdout, 'ok');
  t.same(f.opened, ['a', 'a']);
  t.equal(kept.links.get('a')?.connected, true);
});

t.test('a host that cannot be reached waits out an exponential backoff with jitter before the next try', async (t) => {
  const fail = new Set(['a']);
  const f = fakes({ fail });
  let clock = 0;
  const kept = keptReach(f, { backoff: { baseMs: 1000, maxMs: 8000 }, now: () => clock, random: () => 1 });
  await t.rejects(kept.deps.connect(host('a'), { timeout: 5 }), /connection refused/);
  t.equal(kept.links.get('a')?.retryAt, 1000, 'first wait: the base');
  clock = 500;
  await t.rejects(
    kept.deps.connect(host('a'), { timeout: 5 }),
    /not connected \(next try in 1 s\): .*connection refused/,
  );
  t.equal(f.opened.length, 1, 'no try during the backoff');
  clock = 1000;
  await t.rejects(kept.deps.connect(host('a'), { timeout: 5 }));
  t.equal(kept.links.get('a')?.retryAt, 3000, 'second wait doubles');
  fail.clear();
  clock = 3000;
  await kept.deps.connect(host('a'), { timeout: 5 });
  t.same(kept.links.get('a'), { connected: true, failures: 0 }, 'a success resets the count');
});

t.test('the waits: doubled each failure, capped, 50–100 % of the cap', async (t) => {
  const b = { baseMs: 1000, maxMs: 60_000 };
  t.same(
    [1, 2, 3, 4, 10, 100].map((n) => backoffMs(n, b, () => 1)),
    [1000, 2000, 4000, 8000, 60_000, 60_000],
  );
  t.same(
    [1, 2, 3].map((n) => backoffMs(n, b, () => 0)),
    [500, 1000, 2000],
  );
});

t.test('changed host settings (a reloaded inventory) get a new connection; hosts that left are closed', async (t) => {
  const f = fakes();
  const kept = keptReach(f);
  await kept.deps.connect(host('a'), { timeout: 5 });
  await kept.deps.connect(host('b'), { timeout: 5 });
  await kept.deps.connect(host('a', '10.0.0.9'), { timeout: 5 });
  t.same(f.opened, ['a', 'b', 'a']);
  t.same(f.closed, ['a'], 'the old connection to a is closed');
  await kept.keepOnly(new Set(['a']));
  t.same(f.closed, ['a', 'b']);
  t.notOk(kept.links.has('b'));
});

t.test(
  'a host whose handshake hangs holds a cycle no longer than --timeout; the handshake serves a later cycle',
  async (t) => {
    const f = fakes();
    let finish: (() => void) | undefined;
    let opens = 0;
    const slow = (cfg: ReachHost) => {
      opens++;
      return new Promise<Transport>((resolve) => (finish = () => void f.connect(cfg).then(resolve)));
    };
    const kept = keptReach({ connect: slow, api: f.api }, { random: () => 0 });
    t.teardown(() => kept.close());
    let guard: ReturnType<typeof setTimeout> | undefined;
    const outcome = await Promise.race([
      kept.deps.connect(host('a'), { timeout: 0.05 }).then(
        () => 'connected',
        (e: Error) => e.message,
      ),
      new Promise<string>((r) => (guard = setTimeout(() => r('still waiting after 10 s'), 10_000))),
    ]);
    clearTimeout(guard);
    t.match(outcome, /no connection within 0\.05 s \(--timeout\)/, 'the cycle gave up on the host at --timeout');
    t.equal(kept.links.get('a')?.connected, false);
    t.match(kept.links.get('a')?.lastError, /--timeout/);
    finish!();
    await new Promise((r) => setImmediate(r));
    const tr = await kept.deps.connect(host('a'), { timeout: 0.05 });
    t.equal((await tr.exec('true')).stdout, 'ok', 'the late connection is kept for the next cycle');
    t.equal(opens, 1, 'never opened twice');
    t.equal(kept.links.get('a')?.connected, true);
  },
);
