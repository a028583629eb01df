/**
 * A hostile pack and a hostile node against the lab, over real sshd: a remedy cannot smuggle a setting past YAML 1.1's
 * line breaks, a setting hidden behind one is seen, and a secret-named setting's value reaches no report format.
 */
import t, { type Test } from 'tap';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { parseReport } from '../../helpers/schema.ts';
import { startLab } from '../../../lab/src/index.ts';
import type { Report } from '../../../src/model/index.ts';

t.setTimeout(600_000);
const lab = await startLab({ scenario: 'healthy' });
t.teardown(() => lab.stop());
const node = (name: string) => lab.nodes.find((n) => n.name === name)!;
const ymlOf = (name: string) => join(node(name).searchHome, 'config', 'opensearch.yml');

/** Appends to a node's opensearch.yml for the test; the file is put back in its teardown. */
function appendYml(t: Test, name: string, text: string): void {
  const file = ymlOf(name);
  const before = readFileSync(file);
  t.teardown(() => writeFileSync(file, before));
  appendFileSync(file, text);
}

const audit = (args: string[]) =>
  runCli(['audit', '-i', lab.inventoryPath, '--timeout', '30', ...args], { cwd: '/tmp' });

t.test('a remedy value with a YAML 1.1 line break or a control is refused when the pack is loaded', async (t) => {
  for (const [name, escaped] of [
    ['NEL', '\\N'],
    ['LS', '\\L'],
    ['PS', '\\P'],
    ['CR', '\\r'],
    ['ESC', '\\e'],
    ['C1 CSI', '\\x9b'],
  ]) {
    const dir = t.testdir({
      'smuggle.yml': [
        'smdoctor_pack: 1',
        'name: smuggle',
        'description: a rack attribute, and more',
        'checks:',
        '  - id: rack',
        '    title: The rack is r1',
        '    severity: low',
        '    why: Shard allocation awareness.',
        '    read: { setting: node.attr.rack }',
        '    expect: { equals: r1 }',
        '    remedy:',
        `      set_setting: { key: node.attr.rack, value: "r1${escaped}plugins.security.disabled:${escaped}  true" }`,
        '',
      ].join('\n'),
    });
    const pack = join(dir, 'smuggle.yml');
    const v = await runCli(['pack', 'validate', pack]);
    t.equal(v.code, 2, `${name}: pack validate refuses it`);
    t.match(v.err, /smuggle\.yml:12:\d+: .*(line break|NEL|separator|control)/, `${name}: at file:line:col`);
    const a = await audit(['--format', 'json', '--pack', pack]);
    t.equal(a.code, 2, `${name}: audit refuses the pack before reaching a host`);
    t.equal(a.out, '', `${name}: no report, no plan`);
  }
});

t.test("a setting hidden behind NEL in a node's opensearch.yml is read, as the engine reads it", async (t) => {
  for (const brk of ['\u0085', '\u2028', '\u2029']) {
    const tt = t.test(`U+${brk.charCodeAt(0).toString(16)}`, async (t) => {
      appendYml(t, 'd2', `# transport tuning${brk}plugins.security.allow_unsafe_democertificates: true\n`);
      const r = await audit(['--format', 'json', '--pack', 'builtin:fleet']);
      const report = parseReport<Report>(r.out);
      const c = report.clusters[0]!.checks.find((c) => c.id === 'fleet/demo-certificates-allowed')!;
      t.equal(c.status, 'fail', c.reason);
      t.same([...new Set(c.findings.map((f) => f.host))], ['d2'], 'on the node that hides it');
    });
    await tt;
  }
});

const SECRETS = { d1: 'Hunter2-keystore-pass', d2: 'Q9z' } as const;
const LEAK_PACK = [
  'smdoctor_pack: 1',
  'name: leak',
  'description: ordinary checks that read a secret-named setting',
  'checks:',
  '  - id: matcher-error',
  '    title: The keystore password is long',
  '    severity: low',
  '    why: A short one is guessed.',
  '    read: { setting: plugins.security.ssl.http.keystore_password }',
  '    expect: { at_least: 12 }',
  '  - id: file-line',
  '    title: No keystore password in the file',
  '    severity: low',
  '    why: It belongs in the keystore.',
  "    read: { file: { path: config/opensearch.yml, match: '^(plugins\\.security\\.ssl\\.http\\.keystore.*)$' } }",
  '    expect: { present: false }',
  '  - id: operand',
  '    title: The cluster is named after its password',
  '    severity: low',
  '    why: An operand naming a secret.',
  '    read: { setting: cluster.name }',
  '    expect: { same_as: { setting: plugins.security.ssl.http.keystore_password } }',
  '',
].join('\n');

t.test('a secret-named setting reaches no report format, whichever check prints it', async (t) => {
  for (const [n, secret] of Object.entries(SECRETS))
    appendYml(t, n, `plugins.security.ssl.http.keystore_password: ${secret}\n`);
  const dir = t.testdir({ 'leak.yml': LEAK_PACK });
  const pack = join(dir, 'leak.yml');
  for (const format of ['text', 'json', 'markdown', 'junit', 'html']) {
    const r = await audit(['--format', format, '--pack', pack]);
    t.equal(r.code, 1, `${format}: the checks fail (exit 1)`);
    for (const [n, secret] of Object.entries(SECRETS)) {
      t.notOk(r.out.includes(secret), `${format}: ${n}'s password is in no byte of the output`);
      t.notOk(r.err.includes(secret), `${format}: nor of stderr`);
    }
    if (format === 'json') {
      const checks = parseReport<Report>(r.out).clusters[0]!.checks;
      for (const id of ['matcher-error', 'file-line', 'operand'])
        t.equal(checks.find((c) => c.id === `leak/${id}`)?.status, 'fail', `${id} fails: the value was read`);
    }
  }
});
