/** Bytes that are not UTF-8 survive a set-yaml byte for byte: in the plan's diff, the written file and the local backup. */
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readHost } from '../../../src/audit/gather-host.ts';
import { masterNodeWithSme } from '../../../src/checks/index.ts';
import { editFile } from '../../../src/fix/steps-host.ts';
import { backupStore } from '../../../src/base/backup.ts';
import { LocalTransport } from '../../../src/transport/local.ts';
import type { ActionOf, HostFacts } from '../../../src/model/index.ts';
import type { StepEnv } from '../../../src/fix/types.ts';
import { cluster, nodeHost, specs } from '../../helpers/checks/facts.ts';
import { plantHost } from '../../helpers/audit/fakes.ts';
import { fakeTransport } from '../../helpers/audit/local-sh.ts';

const latin1 = (s: string) => Buffer.from(s, 'latin1');

/** Audit m1 (a master) whose engine file holds `bytes`, from a real shell read; returns the check's plan and the file path. */
async function plan(t: { testdir: () => string }, bytes: Buffer) {
  const root = t.testdir();
  const conf = plantHost(root, 'm1', { engineYml: '' });
  const path = join(conf.searchHome, 'config', 'opensearch.yml');
  writeFileSync(path, bytes);
  const read = await readHost(fakeTransport('m1', {}), conf, 10);
  const nodes = specs();
  const hosts: HostFacts[] = nodes
    .filter((n) => n.host !== null)
    .map((n) => (n.name === 'm1' ? nodeHost(n, { engineYml: read.engineYml, config: conf }) : nodeHost(n)));
  const r = masterNodeWithSme.run(cluster({ nodes, hosts }));
  const env: StepEnv = {
    api: undefined as never,
    nodes: [],
    timeout: 10,
    pollMs: 1,
    now: () => 0,
    sleep: async () => undefined,
    transport: async () => new LocalTransport(conf, { timeout: 10 }),
    backup: backupStore(join(root, 'backups')),
  };
  return { r, path, env, read };
}

t.test('byte-exact edits: a Latin-1 é in a comment survives set-yaml (diff, file, backup)', async (t) => {
  const original = latin1(
    '# r\xe9seau du cluster\ncluster.name: prod\nnode.name: m1\nnode.roles: [cluster_manager]\nnode.attr.node_with_sme: true # \xe9t\xe9\n',
  );
  const { r, path, env, read } = await plan(t, original);
  t.equal(read.engineYml?.encoding, 'latin1');
  const a = r.actions.find((x) => x.type === 'set-yaml') as ActionOf<'set-yaml'>;
  t.ok(a, 'an edit is planned');
  t.match(a.diff, /# \u00e9t\u00e9/, 'the diff shows the é');
  t.notMatch(a.diff, /\ufffd/, 'no replacement character in the diff');
  const res = await editFile(a, env);
  t.equal(res.status, 'done', res.error ?? '');
  t.same(
    readFileSync(path),
    latin1(
      '# r\xe9seau du cluster\ncluster.name: prod\nnode.name: m1\nnode.roles: [cluster_manager]\nnode.attr.node_with_sme: false # \xe9t\xe9\n',
    ),
    'only the value changed',
  );
  t.same(readFileSync(res.backup!), original, 'the backup is the bytes read');
});

t.test('byte-exact edits: a UTF-8 file keeps every byte too (BOM, CRLF, multibyte)', async (t) => {
  const original = Buffer.from(
    '\ufeff# réseau ✓\r\nnode.name: m1\r\nnode.roles: [cluster_manager]\r\nnode.attr.node_with_sme: true\r\n',
    'utf8',
  );
  const { r, path, env } = await plan(t, original);
  const res = await editFile(
    r.actions.find((x) => x.type === 'set-yaml')!,
    env,
  );
  t.equal(res.status, 'done', res.error ?? '');
  t.same(readFileSync(path), Buffer.from(original.toString('utf8').replace('sme: true', 'sme: false'), 'utf8'));
  t.same(readFileSync(res.backup!), original);
});

t.test('byte-exact edits: a file that cannot be edited byte for byte is refused with the reason', async (t) => {
  const utf16 = Buffer.concat([
    Buffer.from([0xff, 0xfe]),
    Buffer.from('node.name: m1\nnode.roles: [cluster_manager]\nnode.attr.node_with_sme: true\n', 'utf16le'),
  ]);
  const { r, path } = await plan(t, utf16);
  t.notOk(
    r.actions.some((x) => x.type === 'set-yaml'),
    'no edit planned',
  );
  t.same(readFileSync(path), utf16, 'untouched');
  // and fix refuses a file that became so after the audit
  const ok = await plan(t, latin1('node.name: m1\nnode.roles: [cluster_manager]\nnode.attr.node_with_sme: true\n'));
  const a = ok.r.actions.find((x) => x.type === 'set-yaml')!;
  const nul = latin1('node.name: m1\nnode.roles: [cluster_manager]\nnode.attr.node_with_sme: true\n\0');
  writeFileSync(ok.path, nul);
  delete a.base_sha256;
  const res = await editFile(a, ok.env);
  t.equal(res.status, 'failed');
  t.match(res.error, /cannot be edited safely: it holds a NUL byte/);
  t.same(readFileSync(ok.path), nul);
});
