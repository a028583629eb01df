/**
 * smdoctor serve as users run it (the built binary) on the lab: the endpoints over real HTTP(S), the SSH connections
 * kept across cycles, scrapes that never audit, SIGHUP and SIGTERM, the history, TLS and credentials, the HTML report
 * in headless Chromium.
 */
import t from 'tap';
import { execa } from 'execa';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLab, type Lab } from '../../../lab/src/index.ts';
import { parseReport } from '../../helpers/schema.ts';
import { parseMetrics, promtool, runPromtool } from '../../helpers/promtool.ts';
import { chromiumPath, launch } from '../../helpers/browser.ts';
import { credentialLine } from '../../../src/serve/auth.ts';
import { serveProcess, type Served } from '../../helpers/serve.ts';
import type { Report } from '../../../src/model/index.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

const serve = (args: string[]): Promise<Served> => serveProcess(['--listen', '127.0.0.1:0', ...args]);

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

async function firstCycle(s: Served): Promise<void> {
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    if ((await get(`${s.url}/healthz`)).status === 200) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no cycle completed: ${s.log()}`);
}

const metric = (text: string, name: string) => parseMetrics(text).find((f) => f.name === name)?.metrics ?? [];
const cycles = async (s: Served, headers?: Record<string, string>) =>
  Number(metric(await (await get(`${s.url}/metrics`, headers)).text(), 'smdoctor_cycles_total')[0]?.value);

/** The serve process's established TCP connections to the lab's SSH ports. */
async function sshConnections(pid: number, lab: Lab): Promise<string[]> {
  const ports = new Set(lab.nodes.map((n) => `${n.address}:${n.sshPort}`));
  const out = (await execa('ss', ['-Htnp', 'state', 'established'])).stdout;
  return out
    .split('\n')
    .filter((l) => l.includes(`pid=${pid},`))
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => ports.has(f[3]!))
    .map((f) => `${f[2]}->${f[3]}`)
    .sort();
}

let lab: Lab;
t.before(async () => {
  lab = await startLab({ scenario: 'broken' });
});
t.teardown(() => lab?.stop());

t.test(
  'cycles over kept connections; the endpoints; SIGHUP reloads; SIGTERM ends cleanly with the last report kept',
  async (t) => {
    const history = t.testdir();
    const s = await serve([
      '-i',
      lab.inventoryPath,
      '--interval',
      '1',
      '--timeout',
      '20',
      '--history',
      history,
      '--log-format',
      'json',
    ]);
    t.teardown(() => void s.proc.kill('SIGKILL'));
    await firstCycle(s);

    const before = await sshConnections(s.proc.pid!, lab);
    t.equal(before.length, lab.nodes.length, 'one SSH connection per host');
    const c0 = await cycles(s);
    while ((await cycles(s)) < c0 + 2) await new Promise((r) => setTimeout(r, 200));
    t.same(await sshConnections(s.proc.pid!, lab), before, 'the same connections two cycles later');

    const metrics = await (await get(`${s.url}/metrics`)).text();
    t.equal(metric(metrics, 'smdoctor_host_reachable').length, lab.nodes.length);
    t.ok(metric(metrics, 'smdoctor_host_reachable').every((m) => m.value === '1'));
    t.ok(metric(metrics, 'smdoctor_check_status').length > 0, 'the report’s families');
    t.ok(metric(metrics, 'smdoctor_last_run_timestamp_seconds').length === 1);
    t.ok(metric(metrics, 'smdoctor_run_duration_seconds').length === 1);
    if (promtool()) t.equal((await runPromtool(['check', 'metrics'], metrics)).code, 0, 'promtool check metrics');
    else t.comment('promtool not installed: the exposition is not checked by it');

    const json = await get(`${s.url}/report.json`);
    t.equal(json.headers.get('content-type'), 'application/json; charset=utf-8');
    const report = parseReport<Report>(await json.text());
    t.equal(report.summary.checks_failed, 5);
    t.equal((await get(`${s.url}/nope`)).status, 404);
    t.equal((await fetch(`${s.url}/metrics`, { method: 'POST' })).status, 405);

    // the state never changed: one report kept, by the first cycle
    t.equal((await readdir(history)).length, 1);

    s.proc.kill('SIGHUP');
    while (!s.log().includes('inventory reloaded')) await new Promise((r) => setTimeout(r, 50));
    const c1 = await cycles(s);
    while ((await cycles(s)) < c1 + 1) await new Promise((r) => setTimeout(r, 200));
    t.same(await sshConnections(s.proc.pid!, lab), before, 'connections to unchanged hosts kept over a reload');

    s.proc.kill('SIGTERM');
    const end = await s.proc;
    t.equal(end.exitCode, 0, s.log());
    const lines = s
      .log()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string });
    t.equal(lines.at(-1)!.msg, 'stopped', 'JSON log lines to the end');
    t.equal((await readdir(history)).length, 2, 'the last report kept on the way out');
  },
);

t.test('a scrape never starts an audit; packs apply as in audit', async (t) => {
  const s = await serve(['-i', lab.inventoryPath, '--interval', '3600', '--timeout', '20', '--pack', 'builtin:fleet']);
  t.teardown(() => void s.proc.kill('SIGKILL'));
  await firstCycle(s);
  for (let i = 0; i < 25; i++) await (await get(`${s.url}/metrics`)).text();
  await Promise.all(Array.from({ length: 25 }, () => get(`${s.url}/report.json`).then((r) => r.text())));
  t.equal(await cycles(s), 1);
  const served = parseReport<Report>(await (await get(`${s.url}/report.json`)).text());
  t.ok(
    served.clusters[0]!.checks.some((c) => c.id.startsWith('fleet/')),
    'the fleet pack’s checks are in the served report',
  );
  s.proc.kill('SIGTERM');
  t.equal((await s.proc).exitCode, 0);
});

const noChromium = chromiumPath() ? false : 'chromium not installed';
t.test(
  'the HTML report in headless Chromium, with its Content-Security-Policy as a header too',
  { skip: noChromium },
  async (t) => {
    const s = await serve(['-i', lab.inventoryPath, '--interval', '3600', '--timeout', '20']);
    t.teardown(() => void s.proc.kill('SIGKILL'));
    await firstCycle(s);
    const res = await get(`${s.url}/report.html`);
    t.match(res.headers.get('content-security-policy'), /default-src 'none'/);
    const browser = await launch();
    t.teardown(() => browser.close());
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
    await page.goto(`${s.url}/report.html`);
    t.match(await page.textContent('body'), /base-limit-document/);
    t.same(errors, [], 'no script or style refused');
    s.proc.kill('SIGTERM');
    await s.proc;
  },
);

t.test('other addresses need TLS and credentials; with them, only admitted requests are answered', async (t) => {
  const refused = await execa(
    process.execPath,
    [join(root, 'bin/smdoctor.js'), 'serve', '-i', lab.inventoryPath, '--listen', '0.0.0.0:0'],
    {
      reject: false,
    },
  );
  t.equal(refused.exitCode, 2);
  t.match(refused.stderr, /needs --tls-cert and --tls-key and --auth-file/);

  const dir = t.testdir();
  const [cert, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  await execa('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    key,
    '-out',
    cert,
  ]);
  const token = 'scrape-token-0123456789abcdef';
  const auth = join(dir, 'auth');
  await writeFile(auth, `${credentialLine(token)}\n`);
  const s = await serve([
    '-i',
    lab.inventoryPath,
    '--interval',
    '3600',
    '--timeout',
    '20',
    '--tls-cert',
    cert,
    '--tls-key',
    key,
    '--auth-file',
    auth,
  ]);
  t.teardown(() => void s.proc.kill('SIGKILL'));
  t.match(s.url, /^https:/);
  const curl = (...a: string[]) =>
    execa('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', '--cacert', cert, ...a], { reject: false });
  for (let i = 0; i < 400 && (await curl(`${s.url}/healthz`)).stdout !== '200'; i++)
    await new Promise((r) => setTimeout(r, 50));
  t.equal((await curl(`${s.url}/metrics`)).stdout, '401', 'no credential');
  t.equal((await curl('-H', 'Authorization: Bearer wrong', `${s.url}/metrics`)).stdout, '401');
  t.equal((await curl('-H', `Authorization: Bearer ${token}`, `${s.url}/metrics`)).stdout, '200');
  t.equal((await curl(`${s.url.replace('https', 'http')}/metrics`)).stdout, '000', 'no plain HTTP');
  t.notMatch(s.log(), token, 'the token is never logged');
  s.proc.kill('SIGTERM');
  t.equal((await s.proc).exitCode, 0);
});
