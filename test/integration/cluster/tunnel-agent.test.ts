/** The REST client under api_via_ssh with an injected tunnel: connections go through it, TLS checked end to end. */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClusterApi } from '../../../src/cluster/client.ts';
import type { ApiTarget, Tunnel } from '../../../src/cluster/types.ts';
import { generateLabTls } from '../../../lab/src/tls.ts';
import { REOPEN_ATTEMPTS } from '../../../src/cluster/ssh-tunnel.ts';
import { requestAs } from '../../helpers/request-as.ts';

const dir = await mkdtemp(join(tmpdir(), 'smdoctor-tunnel-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));
const tls = await generateLabTls(dir, ['127.0.0.1']);
const server = createServer({ key: tls.key, cert: tls.cert }, (_req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ status: 'green' }));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
t.teardown(() => new Promise<void>((r) => server.close(() => r())));
const serverPort = (server.address() as AddressInfo).port;

/** A tunnel that forwards every channel to the server, whatever the API's own address: it records what it was asked. */
function fakeTunnel() {
  const seen = { opened: 0, forwards: [] as string[], closed: 0 };
  const tunnel: Tunnel = {
    forward: async (host, port) => {
      seen.forwards.push(`${host}:${port}`);
      return net.connect(serverPort, '127.0.0.1');
    },
    close: async () => {
      seen.closed++;
    },
  };
  const open = async () => {
    seen.opened++;
    return tunnel;
  };
  return { seen, open };
}

// nothing listens on localhost:1: only the tunnel reaches the server; the certificate names localhost
const target = (tunnel: ApiTarget['tunnel']): ApiTarget => ({
  name: 'n1',
  apiUrl: 'https://localhost:1',
  apiPasswordEnv: 'SMDOCTOR_API_PASSWORD',
  apiCaFile: tls.caFile,
  apiInsecure: false,
  tunnel,
});

t.test("requests go through the tunnel it is given, opened once, to the API's own host and port", async (t) => {
  const { seen, open } = fakeTunnel();
  const api = createClusterApi(target(open), { env: {}, requestTimeout: 10_000 });
  for (let i = 0; i < 2; i++) {
    const res = await requestAs<{ status: string }>(api, { method: 'GET', path: '/_cluster/health' });
    t.same(res, { statusCode: 200, body: { status: 'green' } });
  }
  await api.close();
  t.equal(seen.opened, 1, 'one tunnel for the client');
  t.ok(seen.forwards.length >= 1);
  t.same(new Set(seen.forwards), new Set(['localhost:1']));
});

t.test('a tunnel that cannot open fails the request with its reason', async (t) => {
  const api = createClusterApi(
    target(() => Promise.reject(new Error('api_via_ssh: no host to tunnel the API through (n1: refused)'))),
    { env: {}, requestTimeout: 10_000 },
  );
  await t.rejects(api.request({ method: 'GET', path: '/' }), { code: 'API', message: /n1: refused/ });
  await api.close();
});

t.test('TLS is still verified inside the tunnel: a certificate from another CA is refused', async (t) => {
  const other = await generateLabTls(join(dir, 'other'), ['127.0.0.1']);
  const { open } = fakeTunnel();
  const api = createClusterApi({ ...target(open), apiCaFile: other.caFile }, { env: {}, requestTimeout: 10_000 });
  await t.rejects(api.request({ method: 'GET', path: '/' }), { code: 'API' });
  await api.close();
});

t.test('a tunnel whose SSH session dropped is opened again, and the request goes through', async (t) => {
  const seen = { opened: 0, closed: 0 };
  let drop = async (): Promise<void> => undefined;
  const open = async (): Promise<Tunnel> => {
    const n = ++seen.opened;
    let lost = false;
    const channels: net.Socket[] = [];
    if (n === 1)
      drop = async () => {
        // the session is gone: its channels close, and a new forward is refused as ssh2 refuses it
        lost = true;
        await Promise.all(channels.map((c) => new Promise((r) => c.once('close', r).end())));
      };
    return {
      forward: async () => {
        if (lost) throw new Error('Not connected');
        const c = net.connect(serverPort, '127.0.0.1');
        channels.push(c);
        return c;
      },
      close: async () => {
        seen.closed++;
      },
    };
  };
  const api = createClusterApi(target(open), { env: {}, requestTimeout: 10_000 });
  t.equal((await api.request({ method: 'GET', path: '/' })).statusCode, 200);
  await drop();
  await new Promise((r) => setImmediate(r));
  t.equal((await api.request({ method: 'GET', path: '/' })).statusCode, 200, 'answered through a new tunnel');
  await api.close();
  t.equal(seen.opened, 2, 'opened again once');
  t.ok(seen.closed >= 1, 'the dead tunnel was closed');
});

t.test('a tunnel that keeps dropping is given up after a bounded number of reopenings', async (t) => {
  let opened = 0;
  const open = async (): Promise<Tunnel> => {
    opened++;
    return {
      forward: async () => {
        throw new Error('Not connected');
      },
      close: async () => undefined,
    };
  };
  const api = createClusterApi(target(open), { env: {}, requestTimeout: 10_000 });
  await t.rejects(api.request({ method: 'GET', path: '/' }), { code: 'API', message: /Not connected/ });
  await api.close();
  // three openings per connection; the client tries a request twice (maxRetries 1)
  t.ok(opened >= REOPEN_ATTEMPTS && opened <= 2 * REOPEN_ATTEMPTS, `opened ${opened} times`);
});
