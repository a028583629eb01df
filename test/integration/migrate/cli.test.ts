import t from 'tap';
import { runCli } from '../../helpers/cli.ts';

const TEXT_KW = { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } };
const mappingsJson = JSON.stringify({
  'logs-2024.05.01': { mappings: { properties: { host: TEXT_KW, code: { type: 'long' } } } },
});
const macrosYml = '- name: web_hosts\n  args: []\n  definition: host=web*\n';

const run = (cwd: string, args: string[], o: { stdin?: string; tty?: boolean } = {}) =>
  runCli(['migrate', 'explain', ...args], { cwd, stdin: o.stdin, stdinTTY: o.tty });

t.test('the Done-when command', async (t) => {
  const dir = t.testdir({ 'm.json': mappingsJson, 'macros.yml': macrosYml });
  const r = await run(dir, ['--mappings', 'm.json', '--macros', 'macros.yml', 'source logs-* | search host=web01'], {
    tty: true,
  });
  t.equal(r.code, 1);
  t.match(r.out, 'source logs-* | search text host=web01');
  const text = await run(
    dir,
    ['--format', 'text', '--mappings', 'm.json', '--macros', 'macros.yml', 'source logs-* | search host=web01'],
    { tty: true },
  );
  t.equal(text.code, 1);
  t.match(text.out, '  source logs-* | search text host=web01\n                         ^^^^^\n');
  t.match(text.out, /host\s+text\s+text_op_added/);
});

t.test('json format: exactly the structure; exit 0 when nothing to migrate', async (t) => {
  const dir = t.testdir({ 'm.json': mappingsJson, 'macros.yml': macrosYml });
  const r = await run(
    dir,
    ['--format', 'json', '--mappings', 'm.json', '--macros', 'macros.yml', 'source logs-* | search code=1 `web_hosts`'],
    { tty: true },
  );
  t.equal(r.code, 1, 'manual_review needs migration');
  const e = JSON.parse(r.out);
  t.same(Object.keys(e), ['original', 'expansion', 'macros', 'replacement', 'errors', 'search_fields']);
  t.match(e.macros, [{ name: 'web_hosts', search_fields: [{ status: 'manual_review' }] }]);
  const ok = await run(
    dir,
    ['--format', 'json', '--mappings', 'm.json', '--macros', 'macros.yml', 'source logs-* | search code=1'],
    { tty: true },
  );
  t.equal(ok.code, 0);
  t.equal(JSON.parse(ok.out).replacement, 'source logs-* | search code=1');
});

t.test('standard input, --file, multi-line errors with line and column', async (t) => {
  const dir = t.testdir({ 'm.json': mappingsJson, 'macros.json': '[]', 'q.sml': 'source logs-*\n| search host=a\n' });
  const viaDash = await run(dir, ['--mappings', 'm.json', '--macros', 'macros.json', '--format', 'json', '-'], {
    stdin: 'source logs-* | search host=a\n',
  });
  t.equal(JSON.parse(viaDash.out).replacement, 'source logs-* | search text host=a');
  const piped = await run(dir, ['--mappings', 'm.json', '--macros', 'macros.json', '--format', 'json'], {
    stdin: 'source logs-* | search code=2',
  });
  for (const [name, args, stdin] of [
    ['piped, empty', [], ''],
    ["'-', blank", ['-'], ' \n'],
  ] as const) {
    const empty = await run(dir, ['--mappings', 'm.json', '--macros', 'macros.json', ...args], { stdin });
    t.equal(empty.code, 2, `${name}: no query is a usage error`);
    t.match(empty.err, /needs a query.*standard input held none/, name);
  }
  t.equal(piped.code, 0);
  const file = await run(dir, [
    '--mappings',
    'm.json',
    '--macros',
    'macros.json',
    '--format',
    'json',
    '--file',
    'q.sml',
  ]);
  t.equal(JSON.parse(file.out).replacement, 'source logs-*\n| search text host=a');
  const bad = await run(
    dir,
    ['--mappings', 'm.json', '--macros', 'macros.json', '--format', 'text', 'source logs-*\n| search host="a'],
    { tty: true },
  );
  t.equal(bad.code, 1);
  t.match(bad.out, /UNBALANCED_QUOTE line 2, column 15/);
});

t.test('usage and input errors exit 2', async (t) => {
  const dir = t.testdir({
    'm.json': mappingsJson,
    'broken.json': '{\n  "a": {,\n}',
    'broken.yml': '- name: x\n  args: [\n',
    'shape.yml': '- name: 3\n',
    'macros.yml': macrosYml,
  });
  const rows: Array<{ args: string[]; err: RegExp }> = [
    { args: ['--mappings', 'm.json', '--macros', 'macros.yml'], err: /needs a query/ },
    { args: ['--mappings', 'nope.json', '--macros', 'macros.yml', 'q'], err: /nope\.json: cannot read mappings file/ },
    {
      args: ['--mappings', 'broken.json', '--macros', 'macros.yml', 'q'],
      err: /broken\.json:2:\d+: mappings file is not valid JSON/,
    },
    {
      args: ['--mappings', 'm.json', '--macros', 'broken.yml', 'q'],
      err: /broken\.yml:\d+:\d+: macros file is not valid/,
    },
    { args: ['--mappings', 'm.json', '--macros', 'shape.yml', 'q'], err: /shape\.yml:1: macro #1 needs/ },
    {
      args: ['--format', 'junit', '--mappings', 'm.json', '--macros', 'macros.yml', 'q'],
      err: /not supported for migrate explain/,
    },
    { args: ['--file', 'm.json', 'q'], err: /either as an argument or with --file/ },
  ];
  for (const row of rows) {
    const r = await run(dir, row.args, { tty: true });
    t.equal(r.code, 2, row.args.join(' '));
    t.match(r.err, row.err, row.args.join(' '));
  }
});

t.test(
  'without --limit every cluster is covered: one report grouped by cluster, an unreachable one is exit 3',
  async (t) => {
    const dir = t.testdir({
      'inv.yml': 'all:\n  hosts:\n    a: {api_url: "http://127.0.0.1:1"}\n    b: {api_url: "http://127.0.0.1:2"}\n',
    });
    const r = await run(dir, ['-i', 'inv.yml', '--format', 'json', 'source x | search a=b'], {});
    t.equal(r.code, 3);
    const report = JSON.parse(r.out);
    t.match(report.clusters, [
      { api_url: 'http://127.0.0.1:1', hosts: ['a'], error: /127\.0\.0\.1:1/ },
      { api_url: 'http://127.0.0.1:2', hosts: ['b'], error: /127\.0\.0\.1:2/ },
    ]);
    const one = await run(dir, ['-i', 'inv.yml', '--limit', 'b', '--format', 'json', 'source x | search a=b'], {});
    t.equal(one.code, 3, '--limit picks the cluster through its host');
    t.match(one.err, /127\.0\.0\.1:2/);
    t.notMatch(one.err, /127\.0\.0\.1:1/);
  },
);

t.test(
  'jobs and dashboards: --apply on a pipe needs --yes (before any connection); an unreachable API is exit 3',
  async (t) => {
    const dir = t.testdir({ 'inv.yml': 'all:\n  hosts:\n    a: {api_url: "http://127.0.0.1:1"}\n' });
    for (const sub of ['jobs', 'dashboards']) {
      const r = await runCli(['migrate', sub, '-i', 'inv.yml', '--apply'], { cwd: dir });
      t.equal(r.code, 2, sub);
      t.match(r.err, /--yes/);
      const down = await runCli(['migrate', sub, '-i', 'inv.yml', '--format', 'json'], { cwd: dir });
      t.equal(down.code, 3, `${sub} unreachable`);
      t.match(down.err, /127\.0\.0\.1:1/);
    }
  },
);
