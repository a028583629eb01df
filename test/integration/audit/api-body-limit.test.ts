/** An API answer past the size limit fails that cluster naming the endpoint and the limit: reading stops there, no crash. */
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createClusterApi } from '../../../src/cluster/client.ts';
import { runCli } from '../../helpers/cli.ts';
import { hostileServer, settlesOrHangs } from '../../helpers/hostile.ts';
import type { Report } from '../../../src/model/index.ts';
import { requestAs } from '../../helpers/request-as.ts';

const MIB = 1024 * 1024;
// SMDOCTOR_MAX_FILE_MIB=1 makes the API limit 4 MiB: the answers below pass it without costing the test much
const ENV = { SMDOCTOR_MAX_FILE_MIB: '1' };
const bigJson = (bytes: number): string => JSON.stringify({ pad: 'x'.repeat(bytes) });

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
// what a stalled or hostile cluster answers, byte counts well past 4 MiB
const HOSTILE: Array<[string, Handler]> = [
  [
    'a 6 MiB JSON answer with its length',
    (_q, res) => {
      const body = bigJson(6 * MIB);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.end(body);
    },
  ],
  [
    'an answer that never ends',
    (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, ' ');
      const more = (): void => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', more);
      more();
    },
  ],
  [
    'a gzip bomb (50 KiB that unpacks to 48 MiB)',
    (_q, res) => {
      const body = gzipSync(bigJson(48 * MIB));
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(body);
    },
  ],
];

t.test('the client stops reading at the limit and names the endpoint and the limit', async (t) => {
  for (const [what, handler] of HOSTILE) {
    const srv = await hostileServer(handler);
    const api = createClusterApi(
      { name: 'n1', apiUrl: srv.url, apiPasswordEnv: 'NONE', apiInsecure: false },
      { env: ENV, requestTimeout: 30_000 },
    );
    try {
      await t.rejects(
        api.request({ method: 'GET', path: '/_cat/nodes' }),
        { message: /GET http:\/\/127\.0\.0\.1:\d+\/_cat\/nodes: the answer is too large to read \(more than 4 MiB;/ },
        what,
      );
    } finally {
      await api.close();
      await srv.close();
    }
  }
});

t.test('an answer under the limit is read whole, compressed or not', async (t) => {
  for (const gzip of [false, true]) {
    const body = bigJson(3 * MIB);
    const srv = await hostileServer((_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
      res.end(gzip ? gzipSync(body) : body);
    });
    const api = createClusterApi(
      { name: 'n1', apiUrl: srv.url, apiPasswordEnv: 'NONE', apiInsecure: false },
      { env: ENV, requestTimeout: 30_000 },
    );
    try {
      const r = await requestAs<{ pad: string }>(api, { method: 'GET', path: '/' });
      t.equal(r.statusCode, 200);
      t.equal(r.body.pad.length, 3 * MIB, `gzip ${gzip}`);
    } finally {
      await api.close();
      await srv.close();
    }
  }
});

t.test('audit: a cluster answering past the limit is an error naming the endpoint and the limit', async (t) => {
  const srv = await hostileServer(HOSTILE[1]![1]);
  t.teardown(() => srv.close());
  const dir = mkdtempSync(join(tmpdir(), 'smd-bigapi-'));
  const inv = join(dir, 'inventory.yml');
  writeFileSync(
    inv,
    `all:\n  hosts:\n    n1:\n      ansible_connection: local\n      search_home: ${dir}/search\n      web_home: ${dir}/web\n      api_url: ${srv.url}\n`,
  );
  // the deadline is far: only the limit can end these reads in time
  const run = runCli(['audit', '-i', inv, '--format', 'json', '--timeout', '600'], { cwd: '/tmp', env: ENV });
  const r = await settlesOrHangs(run, 120_000);
  if (r === 'hung') return t.fail('audit is still running after 120 s');
  t.equal(r.code, 3, r.err);
  const report = JSON.parse(r.out) as Report;
  const api = report.clusters[0]!.checks.find((c) => c.id === 'base-limit-document')!;
  t.equal(api.status, 'error');
  t.match(api.reason, /GET http:\/\/127\.0\.0\.1:\d+\/[^ ]*: the answer is too large to read \(more than 4 MiB/);
});

t.test(
  'answers read by smdoctor itself keep what the client gave: statuses, JSON or text, one retry of a 503',
  async (t) => {
    let calls = 0;
    const srv = await hostileServer((req, res) => {
      calls++;
      if (req.url === '/retry' && calls === 1) return void res.writeHead(503).end('busy');
      if (req.url === '/text') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('n1 1.2.3.4\n');
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
      res.end(req.method === 'HEAD' ? undefined : '{"id":12345678901234567890,"ok":true}');
    });
    const api = createClusterApi(
      { name: 'n1', apiUrl: srv.url, apiPasswordEnv: 'NONE', apiInsecure: false },
      { env: ENV, requestTimeout: 30_000 },
    );
    try {
      t.same(await api.request({ method: 'GET', path: '/missing' }), {
        statusCode: 404,
        body: { id: 12345678901234567890n, ok: true },
      });
      t.same(await api.request({ method: 'GET', path: '/text' }), { statusCode: 200, body: 'n1 1.2.3.4\n' });
      t.same(await api.request({ method: 'HEAD', path: '/x' }), { statusCode: 200, body: true });
      calls = 0;
      t.same(await api.request({ method: 'GET', path: '/retry' }), {
        statusCode: 200,
        body: { id: 12345678901234567890n, ok: true },
      });
      t.equal(calls, 2, 'a 503 is asked once more');
    } finally {
      await api.close();
      await srv.close();
    }
  },
);
