/** fix and migrate --apply before they touch anything: consent before any connection, owner-only password file, SIGINT, redaction. */
import t from 'tap';
import { createServer, type Server } from 'node:net';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli, captureContext, withDeps } from '../../helpers/cli.ts';
import { allocateLoopback } from '../../../lab/src/net.ts';
import { runFix } from '../../../src/cli/commands/fix.ts';
import { noLeases } from '../../helpers/fix/fakes.ts';
import { applyPlan } from '../../../src/fix/run.ts';
import { clustersOf } from '../../../src/inventory/clusters.ts';
import { hostConfig } from '../../../src/inventory/hostconfig.ts';
import { agrees } from '../../../src/cli/prompt.ts';
import { redactText, rememberSecret } from '../../../src/text/index.ts';
import type { ApiRequest, ClusterApi } from '../../../src/cluster/types.ts';
import type { Report } from '../../../src/model/index.ts';

/** A host whose SSH port and REST port only count who connects (and hang up). */
const [addr] = await allocateLoopback(1, [2222, 9200]);
const seen = { ssh: 0, api: 0 };
const listen = (port: number, kind: keyof typeof seen): Promise<Server> =>
  new Promise((resolve) => {
    const s = createServer((sock) => {
      seen[kind]++;
      sock.destroy();
    });
    s.listen(port, addr, () => resolve(s));
  });
const servers = await Promise.all([listen(2222, 'ssh'), listen(9200, 'api')]);
t.teardown(() => Promise.all(servers.map((s) => new Promise((r) => s.close(r)))));

const dir = t.testdir({});
const inventory = join(dir, 'inv.yml');
await writeFile(
  inventory,
  `all:\n  vars:\n    api_url: http://${addr}:9200\n  hosts:\n    m1:\n      ansible_host: ${addr}\n      ansible_port: 2222\n      ssh_known_hosts_file: ${join(dir, 'kh')}\n`,
);

t.test('without --yes and without a terminal: exit 2 before any connection', async (t) => {
  const cases = [
    ['fix', '-i', inventory],
    ['fix', '-i', inventory, '--format', 'json'],
    ['migrate', 'jobs', '-i', inventory, '--apply'],
    ['migrate', 'dashboards', '-i', inventory, '--apply', '--format', 'json'],
  ];
  for (const args of cases) {
    seen.ssh = seen.api = 0;
    const r = await runCli(args, { cwd: dir, stdin: 'y\n' });
    t.equal(r.code, 2, args.join(' '));
    t.match(r.err, /--yes/, 'says how to consent');
    t.same(seen, { ssh: 0, api: 0 }, `${args.join(' ')}: nothing was contacted`);
  }
  // the counters do count: the same listing without --apply reaches the API
  seen.ssh = seen.api = 0;
  const list = await runCli(['migrate', 'jobs', '-i', inventory, '--timeout', '5'], { cwd: dir });
  t.not(list.code, 0);
  t.ok(seen.api > 0, 'a listing does connect');
});

t.test('api_password_file readable by group or others: exit 2 naming the file', async (t) => {
  for (const mode of [0o640, 0o604, 0o644]) {
    const pw = join(dir, `pw-${mode.toString(8)}`);
    await writeFile(pw, 'Pw-for-the-api-1\n');
    await chmod(pw, mode);
    const inv = join(dir, `inv-${mode.toString(8)}.yml`);
    await writeFile(
      inv,
      `all:\n  vars:\n    api_url: http://${addr}:9200\n    api_username: admin\n    api_password_file: ${pw}\n  hosts:\n    m1:\n      ansible_host: ${addr}\n      ansible_port: 2222\n`,
    );
    const r = await runCli(['fix', '-i', inv, '--yes', '--format', 'json', '--timeout', '5'], { cwd: dir });
    t.equal(r.code, 2, mode.toString(8));
    t.match(r.err, pw, 'the file is named');
    t.match(r.err, /readable by group or others/);
    t.notMatch(r.out + r.err, 'Pw-for-the-api-1', 'its content is not');
  }
});

t.test('SIGINT during fix: the current step finishes, the rest is skipped, exit 3', async (t) => {
  const settings = (n: number) => ({
    type: 'put-settings' as const,
    method: 'PUT' as const,
    api_path: `/i${n}/_settings`,
    body: {},
    status: 'planned' as const,
  });
  const plan = (): Report => ({
    tool: 'smdoctor',
    version: '0',
    mode: 'audit',
    clusters: [
      {
        api_url: `http://${addr}:9200`,
        name: 'c',
        nodes: [],
        notes: [],
        checks: [
          {
            id: 'limits-index-replicas',
            order: 5,
            status: 'fail',
            reason: 'x',
            findings: [],
            actions: [settings(1), settings(2), settings(3)],
          },
        ],
      },
    ],
    summary: { clusters: 1, hosts: 1, unreachable: 0, checks_failed: 1 },
  });
  const puts: string[] = [];
  const api: ClusterApi = {
    url: `http://${addr}:9200`,
    async request<T>(req: ApiRequest) {
      puts.push(req.path);
      if (puts.length === 1) {
        // a real signal to this process, while the first step is still running: awaited until this process has seen
        // it (the CLI's listener, added before ours, runs first), not for a number of turns of the event loop
        const seen = new Promise((done) => process.once('SIGINT', done));
        process.kill(process.pid, 'SIGINT');
        await seen;
      }
      return { statusCode: 200, body: { acknowledged: true } as T };
    },
    async close() {},
  };
  const listeners = process.listenerCount('SIGINT');
  const ctx = captureContext({ env: { HOME: dir } });
  let audits = 0;
  const code = await runFix(
    withDeps(ctx, {
      leases: noLeases,
      audit: async () => (audits++ === 0 ? plan() : plan()),
      apply: (r, o) =>
        applyPlan(r, {
          ...o,
          deps: {
            hostConfig,
            clustersOf: (inv, hosts) => clustersOf(inv, hosts),
            api: () => api,
            connect: () => Promise.reject(new Error('no host needed')),
          },
        }),
    }),
    { inventory: [inventory], forks: 1, timeout: 5, verbose: 0, format: 'json', backupDir: join(dir, 'bk'), yes: true },
  );
  t.equal(code, 3);
  t.same(puts, ['/i1/_settings'], 'nothing after the interrupted step was sent');
  const report = JSON.parse(ctx.out()) as Report;
  t.match(report.clusters[0]!.checks[0]!.actions, [
    { status: 'done' },
    { status: 'skipped', reason: /interrupted/ },
    { status: 'skipped', reason: /interrupted/ },
  ]);
  t.match(report.fix, { interrupted: true, done: 1, skipped: 2 });
  t.match(ctx.err(), /stopping after the current step/);
  t.match(ctx.err(), /incomplete: interrupted/);
  t.equal(process.listenerCount('SIGINT'), listeners, 'the handler is gone afterwards');
});

t.test('only y or yes agrees', async (t) => {
  for (const a of ['y', 'Y', 'yes', 'YES', ' yes ', 'y\r']) t.ok(agrees(a), JSON.stringify(a));
  for (const a of ['', 'n', 'no', 'yess', 'y es', 'ye', 'yes please', 'true', '1', 'ok', 'oui'])
    t.notOk(agrees(a), JSON.stringify(a));
});

t.test('redaction: secret keys behind a prefix, and secret values anywhere', async (t) => {
  rememberSecret('Vx9-known-value');
  rememberSecret('abc'); // too short to blank everywhere
  const cases: Array<[string, string]> = [
    ['exit 1: password: hunter2', 'exit 1: password: ********'],
    [
      'cannot write /x (left unchanged): exit 1: api_token=abc123 more',
      'cannot write /x (left unchanged): exit 1: api_token=********',
    ],
    ['ERROR: denied\napi_password: hunter2\nnext', 'ERROR: denied\napi_password: ********\nnext'],
    ['curl https://admin:Vx9-known-value@h:9200 failed', 'curl https://admin:********@h:9200 failed'],
    ['login refused for Vx9-known-value', 'login refused for ********'],
    ['the password was wrong', 'the password was wrong'],
    ['abc is a word', 'abc is a word'],
  ];
  for (const [input, want] of cases) t.equal(redactText(input), want, input);
});
