/** The REST client's TLS: one context per CA for all its connections, and the server still checked against that CA. */
import t from 'tap';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClusterApi } from '../../../src/cluster/client.ts';
import type { ApiTarget } from '../../../src/cluster/types.ts';
import { generateLabTls } from '../../../lab/src/tls.ts';

const dir = await mkdtemp(join(tmpdir(), 'smdoctor-tls-'));
t.teardown(() => rm(dir, { recursive: true, force: true }));
const tls = await generateLabTls(dir, ['127.0.0.1']);
const other = await generateLabTls(join(dir, 'other'), ['127.0.0.1']);
const server = createServer({ key: tls.key, cert: tls.cert }, (_req, res) => {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ status: 'green' }));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
t.teardown(() => new Promise<void>((r) => server.close(() => r())));
const target = (caFile: string): ApiTarget => ({
  name: 'n1',
  apiUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
  apiPasswordEnv: 'SMDOCTOR_API_PASSWORD',
  apiCaFile: caFile,
  apiInsecure: false,
});

t.test('parallel reads over several connections, by two clients of one CA: all answered', async (t) => {
  const apis = [
    createClusterApi(target(tls.caFile), { env: {}, requestTimeout: 30_000 }),
    createClusterApi(target(tls.caFile), { env: {}, requestTimeout: 30_000 }),
  ];
  const answers = await Promise.all(
    apis.flatMap((api) => Array.from({ length: 10 }, () => api.request({ method: 'GET', path: '/_cluster/health' }))),
  );
  t.same(
    answers.map((a) => a.statusCode),
    Array(20).fill(200),
  );
  await Promise.all(apis.map((api) => api.close()));
});

t.test('a server whose certificate another CA signed is refused, beside a client that trusts it', async (t) => {
  const trusted = createClusterApi(target(tls.caFile), { env: {}, requestTimeout: 30_000 });
  const wrong = createClusterApi(target(other.caFile), { env: {}, requestTimeout: 10_000 });
  await t.rejects(wrong.request({ method: 'GET', path: '/' }), { code: 'API' });
  t.equal((await trusted.request({ method: 'GET', path: '/' })).statusCode, 200);
  await Promise.all([trusted.close(), wrong.close()]);
});
