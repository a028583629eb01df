import t from 'tap';
import { commandSummary, traceApi, traceConnect } from '../../../src/reach/trace.ts';
import type { Transport } from '../../../src/transport/types.ts';
import type { ClusterApi } from '../../../src/cluster/types.ts';
import type { HostConfig } from '../../../src/inventory/types.ts';

const cfg = { name: 'm1', user: 'root', address: '127.0.0.9', port: 2222 } as HostConfig;

const fakeTransport: Transport = {
  host: 'm1',
  exec: async (command) => ({ code: command.startsWith('false') ? 1 : 0, stdout: 'secret-output', stderr: '' }),
  readFile: async (path) => (path.endsWith('absent') ? null : 'abc'),
  writeFileAtomic: async () => ({ backup: 'old' }),
  close: async () => undefined,
};

t.test('commandSummary keeps a batched script to one line', async (t) => {
  const cases: Array<[string, string]> = [
    ['uname -a', 'uname -a'],
    ['B=x\nsec a\nsec b', 'B=x (+2 lines)'],
    [`${'x'.repeat(150)}\ny`, `${'x'.repeat(100)}… (+1 lines)`],
  ];
  for (const [cmd, want] of cases) t.equal(commandSummary(cmd), want);
});

t.test('every connection, command, read and write is one line; results pass through untouched', async (t) => {
  const lines: string[] = [];
  const connect = traceConnect(
    async () => fakeTransport,
    (l) => lines.push(l),
  );
  const tr = await connect(cfg);
  t.match(await tr.exec('false\nmore'), { code: 1, stdout: 'secret-output' });
  t.equal(await tr.readFile('/x/absent'), null);
  t.same(await tr.writeFileAtomic('/x/f', 'content'), { backup: 'old' });
  t.match(lines, [
    /^m1: connected to root@127\.0\.0\.9:2222 \(\d+ ms\)$/,
    /^m1: exit 1 in \d+ ms: false \(\+1 lines\)$/,
    /^m1: read \/x\/absent \(absent, \d+ ms\)$/,
    /^m1: wrote \/x\/f \(7 chars, \d+ ms\)$/,
  ]);
  t.notMatch(lines.join('\n'), /secret-output|content/, 'output and written content are never traced');
});

t.test('a failed connection is traced and still rejects', async (t) => {
  const lines: string[] = [];
  const connect = traceConnect(
    async () => {
      throw new Error('refused');
    },
    (l) => lines.push(l),
  );
  await t.rejects(connect(cfg), /refused/);
  t.match(lines, [/^m1: connection to 127\.0\.0\.9:2222 failed/]);
});

t.test('REST requests: method, path, query string and status', async (t) => {
  const lines: string[] = [];
  const api: ClusterApi = {
    url: 'https://c:9200',
    request: async <T>() => ({ statusCode: 404, body: {} as T }),
    close: async () => undefined,
  };
  const r = await traceApi(api, (l) => lines.push(l)).request({
    method: 'GET',
    path: '/_cat/nodes',
    querystring: { format: 'json', v: true },
  });
  t.equal(r.statusCode, 404);
  t.match(lines, [/^https:\/\/c:9200: GET \/_cat\/nodes\?format=json&v=true → 404 \(\d+ ms\)$/]);
});

t.test('tracedWiring: untouched without -v; with it, connections and requests of any wiring are traced', async (t) => {
  const { tracedWiring } = await import('../../../src/reach/trace.ts');
  const api: ClusterApi = {
    url: 'https://c:9200',
    request: async <T>() => ({ statusCode: 200, body: {} as T }),
    close: async () => undefined,
  };
  const wiring = {
    connect: async (_c: HostConfig, _o: { timeout: number }) => fakeTransport,
    api: (_c: HostConfig, _o: object) => api,
    other: 1,
  };
  t.equal(tracedWiring(wiring, undefined), wiring);
  const lines: string[] = [];
  const traced = tracedWiring(wiring, (l) => lines.push(l));
  t.equal(traced.other, 1, 'the rest of the wiring is kept');
  await (await traced.connect(cfg, { timeout: 1 })).exec('true');
  await traced.api(cfg, {}).request({ method: 'PUT', path: '/x/_settings' });
  t.match(lines, [/^m1: connected/, /^m1: exit 0 in \d+ ms: true$/, /^https:\/\/c:9200: PUT \/x\/_settings → 200/]);
});
