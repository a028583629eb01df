/** An alias bomb in a host's engine config is a finding of that host naming the file, never expanded: audit finishes. */
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { settlesOrHangs } from '../../helpers/hostile.ts';
import { parseYaml, readKey } from '../../../src/yamledit/index.ts';
import { startLab } from '../../../lab/src/index.ts';
import type { Report } from '../../../src/model/index.ts';

/** `levels` anchors, each nine aliases of the one before: 9^levels values once expanded from `key`. */
function bomb(key: string, levels: number): string {
  const lines = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < levels; i++)
    lines.push(
      `l${i}: &l${i} [${Array(9)
        .fill(`*l${i - 1}`)
        .join(',')}]`,
    );
  lines.push(
    `${key}: [${Array(9)
      .fill(`*l${levels - 1}`)
      .join(',')}]`,
  );
  return `${lines.join('\n')}\n`;
}

t.test('a config whose aliases expand past the limit is an ALIAS_LIMIT issue; a few aliases are read', async (t) => {
  // 9^6 = 531,441 values: past the limit, yet small enough that the code before the limit only misreads it
  for (const [what, text] of [
    ['flow sequences', bomb('node.name', 6)],
    ['nested under a dotted key', bomb('node.attr.node_with_sme', 6)],
    [
      'block maps',
      'a: &a {x: 1, y: 2}\nb: &b {p: *a, q: *a, r: *a}\n' +
        'c: &c {p: *b, q: *b, r: *b}\n'.repeat(1) +
        `d: [${Array(2000).fill('*c').join(',')}]\n`,
    ],
  ] as const) {
    const p = parseYaml(text);
    t.equal(p.errors[0]?.code, 'ALIAS_LIMIT', what);
    t.match(p.errors[0]?.message, /aliases expand past 10,000 values/, what);
    t.equal(p.errors[0]?.line, 2, `${what}: the first alias's line`);
    t.equal(readKey(p, 'node.name').found, null, `${what}: nothing is read from it`);
  }
  const fine = parseYaml('base: &b [a, b]\nnode.roles: [*b, *b]\nnode.name: n1\n');
  t.same(fine.errors, [], 'a few aliases are no bomb');
  t.equal(readKey(fine, 'node.name').found?.value, 'n1');
});

t.test('audit over SSH: the bombed host gets a finding naming its file; the other hosts are audited', async (t) => {
  const lab = await startLab({ scenario: 'healthy' });
  t.teardown(() => lab.stop());
  const node = lab.nodes.find((n) => n.roles.includes('cluster_manager'))!;
  const web = lab.nodes.find((n) => n.roles.length === 0)!;
  const bombed: Array<[string, string]> = [
    [node.name, join(node.searchHome, 'config', 'opensearch.yml')],
    [web.name, join(web.webHome, 'config', 'opensearch_dashboards.yml')],
  ];
  // appended to the node's config (a key it lacks); the web host's config is the bomb alone
  const engine = bombed[0]![1];
  writeFileSync(engine, `${readFileSync(engine, 'utf8')}${bomb('node.attr.sme_bomb', 6)}`);
  writeFileSync(bombed[1]![1], `server.host: 0.0.0.0\n${bomb('opensearch.hosts', 6)}`);
  const run = runCli(['audit', '-i', lab.inventoryPath, '--format', 'json', '--timeout', '30'], { cwd: '/tmp' });
  const r = await settlesOrHangs(run, 120_000);
  if (r === 'hung') return t.fail('audit is still running after 120 s');
  const report = JSON.parse(r.out) as Report;
  const findings = report.clusters[0]!.checks.flatMap((c) => c.findings);
  for (const [host, file] of bombed) {
    const name = file.split('/').pop()!.replace('.', '\\.');
    const re = new RegExp(`${name}:\\d+:\\d+: cannot be parsed \\(ALIAS_LIMIT: YAML aliases expand past 10,000`);
    t.ok(
      findings.some((f) => f.host === host && re.test(f.message)),
      `${host}: ${file} is named`,
    );
  }
  const named = new Set(bombed.map(([h]) => h));
  t.notOk(
    findings.some((f) => !named.has(f.host ?? '') && /ALIAS_LIMIT/.test(f.message)),
    'only the bombed hosts are refused',
  );
});
