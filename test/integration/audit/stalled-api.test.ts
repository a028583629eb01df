/** `audit --timeout` finishes against an API that stalls mid-answer: that cluster fails (exit 3), nothing hangs. */
import t from 'tap';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { hostileServer, settlesOrHangs, stallAfterHeaders, trickle } from '../../helpers/hostile.ts';
import type { Report } from '../../../src/model/index.ts';

/** One local host (no SSH) whose cluster API is `url`. */
function inventory(url: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'smd-stall-'));
  const file = join(dir, 'inventory.yml');
  writeFileSync(
    file,
    `all:\n  hosts:\n    n1:\n      ansible_connection: local\n      search_home: ${dir}/search\n      web_home: ${dir}/web\n      api_url: ${url}\n`,
  );
  return file;
}

for (const [name, handler] of [
  ['stalls after its headers', stallAfterHeaders],
  ['trickles its body', trickle(200)],
] as const) {
  t.test(`audit deadline: an API that ${name} gives exit 3 and an unreachable cluster within --timeout`, async (t) => {
    const srv = await hostileServer(handler);
    t.teardown(() => srv.close());
    const run = runCli(['audit', '-i', inventory(srv.url), '--format', 'json', '--timeout', '2'], { cwd: '/tmp' });
    const r = await settlesOrHangs(run, 60_000);
    if (r === 'hung') return t.fail('audit is still running after 60 s');
    t.equal(r.code, 3, r.err);
    const report = JSON.parse(r.out) as Report;
    const api = report.clusters[0]!.checks.find((c) => c.id === 'base-limit-document')!;
    t.equal(api.status, 'error');
    t.match(api.reason, /no complete answer within 2s/);
  });
}
