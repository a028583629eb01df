/** Remote files past the size limit are "too large to audit" for that host, over SSH and locally: never a crash. */
import t from 'tap';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readHost } from '../../../src/audit/gather-host.ts';
import { connectTransport } from '../../../src/transport/connect.ts';
import { maxFileBytes } from '../../../src/base/limits.ts';
import type { HostConfig } from '../../../src/inventory/types.ts';
import { startSshdFleet } from '../../helpers/sshd.ts';

// a 1 MiB limit keeps the files of this test small; the mechanism is the same at the default 16 MiB
const ENV = { SMDOCTOR_MAX_FILE_MIB: '1' };
const MIB = 1024 * 1024;

const fleet = await startSshdFleet(t, 1);
const KINDS: Array<[string, Partial<HostConfig>]> = [
  ['ssh', {}],
  ['local', { connection: 'local' }],
];

t.test('a config past the limit is a finding of its host; the other files are read', async (t) => {
  for (const [kind, over] of KINDS) {
    for (const [what, body] of [
      ['text', `node.name: n1\n${'# padding line\n'.repeat(MIB / 15 + 10)}`],
      ['newlines', '\n'.repeat(3 * MIB)],
    ] as const) {
      const root = t.testdir({});
      const cfg = fleet.config(0, { searchHome: join(root, 'search'), webHome: join(root, 'web'), ...over });
      mkdirSync(join(cfg.searchHome, 'config'), { recursive: true });
      mkdirSync(join(cfg.webHome, 'config'), { recursive: true });
      mkdirSync(join(cfg.searchHome, 'plugins', 'sm-big'), { recursive: true });
      mkdirSync(join(cfg.searchHome, 'plugins', 'sm-ok'), { recursive: true });
      writeFileSync(join(cfg.searchHome, 'config', 'opensearch.yml'), body);
      writeFileSync(join(cfg.webHome, 'config', 'opensearch_dashboards.yml'), 'server.host: 0.0.0.0\n');
      writeFileSync(join(cfg.searchHome, 'plugins', 'sm-big', 'plugin-descriptor.properties'), 'x'.repeat(MIB + 5));
      writeFileSync(join(cfg.searchHome, 'plugins', 'sm-ok', 'plugin-descriptor.properties'), 'name=sm-ok\n');
      // the handshake with a local sshd: seconds on a loaded machine, and no part of what is tested here
      const tr = await connectTransport(cfg, { timeout: 30, connectTimeout: 30, env: ENV, warn: () => undefined });
      try {
        const facts = await readHost(tr, cfg, 30, undefined, undefined, maxFileBytes(ENV));
        t.equal(facts.reachable, true, `${kind} ${what}: the host is reachable`);
        t.equal(facts.engineYml, null, `${kind} ${what}: the big file is not audited`);
        t.match(facts.error, /opensearch\.yml is too large to audit \(more than 1 MiB/, `${kind} ${what}`);
        t.match(facts.error, /plugin folder sm-big is too large to audit/);
        t.equal(facts.dashboardsYml?.text, 'server.host: 0.0.0.0\n', 'the other config is read');
        t.same(
          facts.plugins.map((p) => p.name),
          ['sm-big', 'sm-ok'],
        );
      } finally {
        await tr.close();
      }
    }
  }
});

t.test('a command whose output has no end is stopped at the limit, not collected whole', async (t) => {
  for (const [kind, over] of KINDS) {
    const tr = await connectTransport(fleet.config(0, over), {
      timeout: 60,
      connectTimeout: 30,
      env: ENV,
      warn: () => undefined,
    });
    try {
      const r = await tr.exec('yes ""', { binary: true });
      t.ok(r.stdout.length <= 4 * MIB, `${kind}: ${r.stdout.length} bytes kept`);
      t.equal(r.code, 255, kind);
      t.match(r.stderr, /too large to audit/, kind);
    } finally {
      await tr.close();
    }
  }
});

t.test("an inventory script's output past its limit is an input error naming the script", async (t) => {
  const dir = t.testdir({});
  const script = join(dir, 'ec2.sh');
  writeFileSync(script, "#!/bin/sh\nyes '' | head -c 40000000\n", { mode: 0o755 });
  const { runCli } = await import('../../helpers/cli.ts');
  const r = await runCli(['inventory', '--list', '-i', script], { env: ENV });
  t.equal(r.code, 2);
  t.match(r.err, `${script}: inventory script --list: its output passes 16 MiB`);
});
