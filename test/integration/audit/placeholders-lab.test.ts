/**
 * Issue 31 item 7 on the lab: nodes whose `node.roles: ['${NODE_ROLE}']` the engine resolves from its environment.
 * The audit reads that environment from the engine's /proc/<pid>/environ in its one batched command: no restart is
 * pending where none is; where no environment can be read, the roles are unknown from the file, never literal.
 */
import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { parseReport } from '../../helpers/schema.ts';
import { startLab } from '../../../lab/src/index.ts';
import type { Report } from '../../../src/model/index.ts';

const lab = await startLab({ scenario: 'placeholders', restartDelayMs: 50 });
t.teardown(() => lab.stop());
const audit = async () => {
  const r = await runCli(['audit', '--format', 'json', '-i', lab.inventoryPath], { cwd: '/tmp' });
  return { ...r, report: parseReport<Report>(r.out) };
};

t.test('roles from ${NODE_ROLE}: every check passes, no restart pending, d3 unknown from the file', async (t) => {
  const { code, err, out, report } = await audit();
  t.equal(code, 0, err);
  const c = report.clusters[0]!;
  t.same(
    c.checks.map((k) => k.status),
    ['pass', 'pass', 'pass', 'pass', 'pass'],
  );
  t.same(
    c.nodes.filter((n) => ['m3', 'd2', 'd3'].includes(n.name ?? '')).map((n) => [n.name, n.roles]),
    [
      ['m3', ['cluster_manager']],
      ['d2', ['data']],
      ['d3', ['data']],
    ],
  );
  t.same(
    c.notes.map((n) => [n.host, n.kind, n.evidence?.kind]),
    [['d3', 'unverified', 'setting-unknown']],
    'm3 and d2 resolved from their environment; d3 has none to read',
  );
  t.match(c.notes[0]!.message, /node\.roles in .*opensearch\.yml is set from \$\{NODE_ROLE\} .*unknown from the file/);
  t.notMatch(out, /restart pending/);
  t.notMatch(out, /lab-env-s3cret-0d5e/, 'no value of the environment in the report');
});

t.test('the file changed, the environment not: a real restart pending, said with resolved roles', async (t) => {
  const yml = join(lab.nodes.find((h) => h.name === 'd2')!.searchHome, 'config', 'opensearch.yml');
  const text = await readFile(yml, 'utf8');
  t.teardown(() => writeFile(yml, text));
  await writeFile(yml, text.replace("node.roles: ['${NODE_ROLE}']", "node.roles: ['${NODE_ROLE}', ingest]"));
  const { report } = await audit();
  t.match(report.clusters[0]!.notes, [
    {
      host: 'd2',
      kind: undefined,
      evidence: { kind: 'restart-pending', config: ['data', 'ingest'], running: ['data'] },
    },
  ]);
});

t.test('a hostile node: placeholders 20,000 deep or 100,000 long refuse that setting on that host only', async (t) => {
  const file = (name: string) => join(lab.nodes.find((h) => h.name === name)!.searchHome, 'config', 'opensearch.yml');
  const [d2, m3] = [file('d2'), file('m3')];
  const [d2Text, m3Text] = [await readFile(d2, 'utf8'), await readFile(m3, 'utf8')];
  t.teardown(() => Promise.all([writeFile(d2, d2Text), writeFile(m3, m3Text)]));
  const deep = '${'.repeat(20_000) + 'NODE_ROLE' + '}'.repeat(20_000);
  await writeFile(d2, d2Text.replace("node.roles: ['${NODE_ROLE}']", `node.roles: ['${deep}']`));
  const many = `node.attr.node_with_sme: '${'${NODE_ROLE}'.repeat(100_000)}'`;
  await writeFile(m3, m3Text.replace(/^node\.attr\.node_with_sme: .*$/m, many));
  const { code, err, report } = await audit();
  t.not(code, 3, err);
  t.notMatch(err, /internal error|RangeError/);
  const notes = report.clusters[0]!.notes.filter((n) => n.evidence?.kind === 'setting-unresolvable');
  t.same(notes.map((n) => [n.host, n.kind, (n.evidence as { what?: string }).what]).sort(), [
    ['d2', 'unverified', 'node.roles'],
    ['m3', 'unverified', 'node.attr.node_with_sme'],
  ]);
  t.match(notes.find((n) => n.host === 'd2')!.message, /nested more than 64 deep: not resolved/);
  t.match(notes.find((n) => n.host === 'm3')!.message, /more than 10000 placeholders: not resolved/);
  t.same(
    report.clusters[0]!.checks.map((k) => k.status),
    ['pass', 'pass', 'pass', 'pass', 'pass'],
    'every check still judged',
  );
});
