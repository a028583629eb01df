/**
 * serve (the built binary) against an API fixture on 127.0.0.1 whose answers the test changes between cycles: an
 * integer past 2^53 in the base limit's 404 body is served exactly and never stops the cycles; a cycle that fails is
 * what /healthz says (503 with the reason) until a good one.
 */
import t from 'tap';
import { execa } from 'execa';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hostileServer } from '../../helpers/hostile.ts';
import { parseMetrics } from '../../helpers/promtool.ts';
import { BASE_LIMIT_BODY_404 } from '../../helpers/checks/big-integers.ts';
import { BASE_LIMIT_DEFAULTS } from '../../../src/checks/base-limit-document.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const node = { ip: '127.0.0.9', name: 'n1', 'node.roles': 'cluster_manager,data', cluster_manager: '*' };
const routes: Record<string, unknown> = {
  '/_cat/nodes': [node],
  '/_cat/nodeattrs': [],
  '/_cat/plugins': [],
  '/_cat/shards/.sm_sme_limits_user': [],
  '/_cluster/health': { cluster_name: 'big', status: 'green', number_of_nodes: 1 },
};
let baseLimit: { status: number; body: string } = { status: 200, body: JSON.stringify(BASE_LIMIT_DEFAULTS) };
const api = await hostileServer((req, res) => {
  const path = (req.url ?? '/').replace(/\?.*$/, '');
  const hit = path === '/_core/limits_user/base_limit' ? baseLimit : null;
  const own = Object.hasOwn(routes, path);
  res.writeHead(hit?.status ?? (own ? 200 : 404), { 'content-type': 'application/json' });
  res.end(
    hit?.body ?? JSON.stringify(own ? routes[path] : { error: { type: 'index_not_found_exception' }, status: 404 }),
  );
});
t.teardown(() => api.close());

const dir = mkdtempSync(join(tmpdir(), 'smd-serve-api-'));
const inventory = join(dir, 'inventory.yml');
writeFileSync(
  inventory,
  `all:\n  hosts:\n    n1:\n      ansible_connection: local\n      search_home: ${dir}/n1\n      web_home: ${dir}/n1-web\n      api_url: ${api.url}\n`,
);
const history = join(dir, 'history');
await mkdir(history);
const proc = execa(
  process.execPath,
  [join(root, 'bin/smdoctor.js'), 'serve', '-i', inventory, '--listen', '127.0.0.1:0', '--interval', '1'],
  { cwd: dir, reject: false, env: { NO_COLOR: '1' } },
);
let log = '';
proc.stderr!.on('data', (d: Buffer) => (log += d.toString()));
t.teardown(() => {
  proc.kill('SIGTERM');
  return proc;
});

async function until<T>(what: string, probe: () => Promise<T | undefined>): Promise<T> {
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 100))) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
  }
  throw new Error(`${what} did not happen: ${log.slice(-2000)}`);
}
const url = await until('serving', async () => /serving on (http:\/\/[^\s"]+)/.exec(log)?.[1]);
const cycles = async () =>
  Number(
    parseMetrics(await (await fetch(`${url}/metrics`)).text()).find((f) => f.name === 'smdoctor_cycles_total')
      ?.metrics[0]?.value,
  );

t.test('an integer past 2^53 in the 404 body: reported exactly, the cycles go on, /healthz 200', async (t) => {
  await until('a first cycle', async () => ((await fetch(`${url}/healthz`)).status === 200 ? true : undefined));
  baseLimit = { status: 404, body: BASE_LIMIT_BODY_404 };
  const json = await until('the 404 served', async () => {
    const text = await (await fetch(`${url}/report.json`)).text();
    return text.includes('Base user limit not found') ? text : undefined;
  });
  t.match(json, /"id": 18446744073709551615\b/);
  const seen = await cycles();
  await until('two more cycles', async () => ((await cycles()) >= seen + 2 ? true : undefined));
  const h = await fetch(`${url}/healthz`);
  t.equal(h.status, 200, await h.text());
  t.notMatch(log, /internal error|cycle failed|BigInt/);
});

t.test('a cycle that fails makes /healthz 503 with the reason, a good one 200 again', async (t) => {
  // a second serve that keeps --history: the history folder turned into a file fails the cycle that keeps a report
  const p2 = execa(
    process.execPath,
    [
      join(root, 'bin/smdoctor.js'),
      'serve',
      '-i',
      inventory,
      '--listen',
      '127.0.0.1:0',
      '--interval',
      '1',
      '--history',
      history,
    ],
    { cwd: dir, reject: false, env: { NO_COLOR: '1' } },
  );
  let log2 = '';
  p2.stderr!.on('data', (d: Buffer) => (log2 += d.toString()));
  t.teardown(() => {
    p2.kill('SIGTERM');
    return p2;
  });
  const url2 = await until('serving', async () => /serving on (http:\/\/[^\s"]+)/.exec(log2)?.[1]);
  await until('a first cycle', async () => ((await fetch(`${url2}/healthz`)).status === 200 ? true : undefined));
  await rm(history, { recursive: true });
  await writeFile(history, 'not a folder');
  t.teardown(async () => {
    await rm(history, { force: true });
    await mkdir(history, { recursive: true });
  });
  baseLimit = { status: 200, body: JSON.stringify(BASE_LIMIT_DEFAULTS) }; // a changed state: the cycle keeps it
  const failing = await until('a failed cycle on /healthz', async () => {
    const r = await fetch(`${url2}/healthz`);
    return r.status === 503 ? r.text() : undefined;
  });
  t.match(
    failing,
    /^failing: the last cycle failed \d+ s ago: .*history.*; the last report \(\d+ s ago\) stays served\n$/,
  );
  const m = parseMetrics(await (await fetch(`${url2}/metrics`)).text());
  t.ok(Number(m.find((f) => f.name === 'smdoctor_cycle_failures_total')?.metrics[0]?.value) >= 1);
  // the next cycle sees no change, keeps nothing and completes
  await until('a good cycle again', async () => ((await fetch(`${url2}/healthz`)).status === 200 ? true : undefined));
  t.pass('200 again');
});
