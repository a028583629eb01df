/** Credentials inside api_url never show (report, -v, inventory, errors), still authenticate, and draw a warning; basic auth over http:// warns. */
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { hostileServer, jsonRoutes } from '../../helpers/hostile.ts';

const PW = 'Pw-InUrl-91x';
const routes = jsonRoutes({
  '/_cat/nodes': [{ ip: '127.0.0.9', name: 'n1', 'node.roles': 'cluster_manager,data', cluster_manager: '*' }],
  '/_cat/nodeattrs': [],
  '/_cat/plugins': [],
  '/_cat/shards/.sm_sme_limits_user': [],
  '/_cluster/health': { cluster_name: 'c1', status: 'green', number_of_nodes: 1 },
});

async function server(t: { teardown: (f: () => unknown) => void }) {
  const auth: string[] = [];
  const srv = await hostileServer((req, res) => {
    auth.push(req.headers.authorization ?? '');
    routes(req, res);
  });
  t.teardown(() => srv.close());
  return { srv, auth };
}

function inventory(vars: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'smd-cred-'));
  const file = join(dir, 'inventory.yml');
  writeFileSync(
    file,
    `all:\n  hosts:\n    n1:\n      ansible_connection: local\n      search_home: ${dir}/s\n      web_home: ${dir}/w\n${vars}`,
  );
  return file;
}

t.test(
  'url credentials: the password in api_url is never shown, still authenticates, and is warned about',
  async (t) => {
    const { srv, auth } = await server(t);
    const port = new URL(srv.url).port;
    const inv = inventory(`      api_url: http://admin:${PW}@127.0.0.1:${port}\n`);
    const outputs: string[] = [];
    for (const format of ['json', 'text', 'markdown', 'junit']) {
      const r = await runCli(['audit', '-i', inv, '--format', format, '--timeout', '5', '-vv'], {
        cwd: '/tmp',
        env: {},
      });
      outputs.push(r.out, r.err);
      if (format === 'json') {
        const report = JSON.parse(r.out);
        t.equal(report.clusters[0].api_url, `http://127.0.0.1:${port}`, 'api_url without userinfo');
        t.match(
          r.err,
          /api_url http:\/\/127\.0\.0\.1:\d+ has a user and password written in it .*they belong in api_username and api_password_file or api_password_env/,
        );
        t.match(r.err, /GET \/_cat\/nodes/, '-v traces the requests');
      }
    }
    t.ok(
      auth.length > 0 && auth.every((a) => a === `Basic ${Buffer.from(`admin:${PW}`).toString('base64')}`),
      'every request authenticates with the url credentials',
    );
    for (const mode of [['--list'], ['--host', 'n1']]) {
      const r = await runCli(['inventory', '-i', inv, ...mode], { cwd: '/tmp', env: {} });
      t.equal(r.code, 0, r.err);
      outputs.push(r.out, r.err);
      t.match(r.out, /admin:\*{8}@127/, `inventory ${mode[0]} blanks the password`);
    }
    // a refused connection: the error message carries the url
    const down = inventory(`      api_url: http://admin:${PW}@127.0.0.1:1\n`);
    const r = await runCli(['audit', '-i', down, '--format', 'json', '--timeout', '5', '-v'], { cwd: '/tmp', env: {} });
    t.equal(r.code, 3);
    outputs.push(r.out, r.err);
    t.equal(
      JSON.parse(r.out).clusters[0].name,
      'http://127.0.0.1:1',
      'the name of an unreachable cluster is its url without userinfo',
    );
    for (const o of outputs) t.notMatch(o, PW, 'the password appears nowhere');
  },
);

t.test(
  'http basic auth: api_username over http:// warns that the password goes in clear text; no credentials, no warning',
  async (t) => {
    const { srv, auth } = await server(t);
    const withUser = await runCli(
      [
        'audit',
        '-i',
        inventory(`      api_url: ${srv.url}\n      api_username: admin\n`),
        '--format',
        'json',
        '--timeout',
        '5',
      ],
      { cwd: '/tmp', env: { SMDOCTOR_API_PASSWORD: 'pw-from-env' } },
    );
    t.match(
      withUser.err,
      /basic auth to http:\/\/127\.0\.0\.1:\d+ goes over plain http: the password crosses the network in clear text/,
    );
    t.ok(
      auth.every((a) => a.startsWith('Basic ')),
      'and it still authenticates',
    );
    const { srv: other } = await server(t);
    const anonymous = await runCli(
      ['audit', '-i', inventory(`      api_url: ${other.url}\n`), '--format', 'json', '--timeout', '5'],
      { cwd: '/tmp', env: {} },
    );
    t.notMatch(anonymous.err, /clear text/);
  },
);
