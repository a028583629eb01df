import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAuditCommand } from '../../../src/cli/commands/audit.ts';
import { main } from '../../../src/cli/main.ts';
import type { AuditArgs } from '../../../src/cli/args.ts';
import type { Format } from '../../../src/report/formats.ts';
import { captureContext, withDeps } from '../../helpers/cli.ts';
import type { RunAuditOptions } from '../../../src/audit/run.ts';
import type { CheckStatus, Report } from '../../../src/model/index.ts';
import { UsageError } from '../../../src/base/errors.ts';

const ctx = (tty = false) => captureContext({ tty });

const INV = 'all:\n  hosts:\n    m1: {ansible_host: 127.0.0.1}\n    d1: {ansible_host: 127.0.0.2}\n';

function report(statuses: CheckStatus[], unreachable = 0): Report {
  return {
    tool: 'smdoctor',
    version: '0',
    mode: 'audit',
    clusters: [
      {
        api_url: 'https://127.0.0.1:9200',
        name: 'lab',
        nodes: [],
        notes: unreachable
          ? [{ host: 'd1', message: 'unreachable: refused', evidence: { kind: 'host-unreachable' } }]
          : [],
        checks: statuses.map((status, i) => ({
          id: 'base-limit-document',
          order: i + 1,
          status,
          reason: `because ${status}`,
          findings: [],
          actions: [],
        })),
      },
    ],
    summary: { clusters: 1, hosts: 2, unreachable, checks_failed: statuses.filter((s) => s === 'fail').length },
  };
}

const opts = (dir: string, o: Partial<AuditArgs> = {}): Partial<AuditArgs> => ({
  inventory: [join(dir, 'inv.yml')],
  forks: 20,
  timeout: 5,
  verbose: 0,
  ...o,
});

t.test(
  'exit codes: 0 pass, 1 fail, 3 incomplete (wins over 1), with a reason on stderr; report always printed',
  async (t) => {
    const cases: Array<{ name: string; r: Report; code: number; err: RegExp | null }> = [
      { name: 'all pass', r: report(['pass', 'pass', 'skip']), code: 0, err: null },
      { name: 'a failure', r: report(['pass', 'fail']), code: 1, err: null },
      {
        name: 'a check in error',
        r: report(['fail', 'error']),
        code: 3,
        err: /lab \(https:\/\/127.0.0.1:9200\): not decided: base-limit-document$/m,
      },
      { name: 'an unreachable host', r: report(['fail'], 1), code: 3, err: /unreachable: d1$/m },
    ];
    for (const c of cases) {
      const dir = t.testdir({ 'inv.yml': INV });
      const x = ctx();
      const code = await runAuditCommand(withDeps(x, { audit: async () => c.r }), opts(dir));
      t.equal(code, c.code, c.name);
      t.match(JSON.parse(x.out()), { tool: 'smdoctor', summary: c.r.summary }, `${c.name}: json when not a terminal`);
      if (c.err) t.match(x.err(), c.err, `${c.name}: says why`);
      else t.equal(x.err(), '', `${c.name}: quiet stderr`);
    }
  },
);

t.test('passes hosts, --limit, forks, timeout and --check (in seed order) to the audit', async (t) => {
  const dir = t.testdir({ 'inv.yml': INV });
  let seen: RunAuditOptions | undefined;
  await runAuditCommand(
    withDeps(ctx(), { audit: async (o) => ((seen = o), report(['pass'])) }),
    opts(dir, { limit: 'd1', forks: 3, timeout: 9, check: 'master-plugins,base-limit-document' }),
  );
  t.match(seen, { hosts: ['d1'], forks: 3, timeout: 9, only: ['base-limit-document', 'master-plugins'] });
});

t.test('formats: text on a terminal, -o writes the file', async (t) => {
  const dir = t.testdir({ 'inv.yml': INV });
  const tty = ctx(true);
  await runAuditCommand(withDeps(tty, { audit: async () => report(['fail']) }), opts(dir));
  t.match(tty.out(), /\x1b\[/, 'coloured on a terminal');
  t.match(tty.out().replace(/\x1b\[\d+m/g, ''), /FAIL 1 base-limit-document — because fail/);
  const file = join(dir, 'r.xml');
  const x = ctx(true);
  await runAuditCommand(
    withDeps(x, { audit: async () => report(['fail']) }),
    opts(dir, { format: 'junit', output: file }),
  );
  t.equal(x.out(), '');
  t.match(readFileSync(file, 'utf8'), /<testcase classname="lab" name="1 base-limit-document">/);
});

t.test('unknown --check id: usage error listing the valid ids', async (t) => {
  const dir = t.testdir({ 'inv.yml': INV });
  await t.rejects(
    runAuditCommand(withDeps(ctx(), { audit: async () => report([]) }), opts(dir, { check: 'master-plugins,nope' })),
    UsageError,
  );
  const x = ctx();
  const code = await main(['node', 'smdoctor', 'audit', '-i', join(dir, 'inv.yml'), '--check', 'nope'], x);
  t.equal(code, 2);
  t.match(
    x.err(),
    /'nope'.*base-limit-document, master-node-with-sme, dashboards-hosts, master-plugins, limits-index-replicas/,
  );
});

t.test('the fix --plan hint names the -o file only when it is a JSON report', async (t) => {
  const planned = (): Report => {
    const r = report(['fail']);
    const c = r.clusters[0]!;
    c.pins = { nodes: [], elected_manager: null, cluster_settings: null, index_settings: null };
    c.checks[0]!.actions = [
      { type: 'put-settings', method: 'PUT', api_path: '/_cluster/settings', body: {}, status: 'planned' },
    ];
    return r;
  };
  const cases: Array<{ format: Format; output?: string; names: RegExp }> = [
    {
      format: 'json',
      output: 'plan.json',
      names: /fix --plan \S+plan\.json --approve sha256:\w+ runs exactly this plan\)$/m,
    },
    { format: 'html', output: 'r.html', names: /fix --plan FILE --approve .*FILE being the JSON report/ },
    { format: 'prometheus', output: 'r.prom', names: /fix --plan FILE --approve .*audit --format json -o FILE/ },
    { format: 'json', names: /fix --plan FILE --approve/ },
  ];
  for (const c of cases) {
    const dir = t.testdir({ 'inv.yml': INV });
    const x = ctx();
    const output = c.output ? join(dir, c.output) : undefined;
    await runAuditCommand(withDeps(x, { audit: async () => planned() }), opts(dir, { format: c.format, output }));
    t.match(x.err(), c.names, `${c.format} ${c.output ?? 'on stdout'}`);
    if (c.output && c.format !== 'json') t.notMatch(x.err(), c.output, `${c.format}: the file is not named`);
  }
});

t.test('text on a terminal fits its columns; COLUMNS when piped; -o a file is not cut', async (t) => {
  const dir = t.testdir({ 'inv.yml': INV });
  const long = (): Report => {
    const r = report(['fail', 'pass']);
    r.clusters[0]!.checks[0]!.reason = 'a reason of many words '.repeat(8);
    r.clusters[0]!.checks[1]!.reason = 'a passing reason that goes on '.repeat(4);
    return r;
  };
  const widest = (s: string) =>
    Math.max(
      ...s
        .replace(/\x1b\[[0-9;]*m/g, '')
        .split('\n')
        .map((l) => l.length),
    );
  const tty = ctx(true);
  Object.assign(tty.stdout, { columns: 50 });
  await runAuditCommand(withDeps(tty, { audit: async () => long() }), opts(dir));
  t.ok(widest(tty.out()) <= 50, `the terminal's 50 columns (widest ${widest(tty.out())})`);
  const piped = captureContext({ env: { COLUMNS: '60' } });
  await runAuditCommand(withDeps(piped, { audit: async () => long() }), opts(dir, { format: 'text' }));
  t.ok(widest(piped.out()) <= 60 && widest(piped.out()) > 50, 'COLUMNS when standard output is no terminal');
  const file = join(dir, 'r.txt');
  await runAuditCommand(withDeps(tty, { audit: async () => long() }), opts(dir, { output: file }));
  t.ok(widest(readFileSync(file, 'utf8')) > 100, 'a file keeps whole lines');
});

t.test('-v shows the why and docs of passing pack checks too', async (t) => {
  const dir = t.testdir({ 'inv.yml': INV });
  const withWhy = (): Report => {
    const r = report(['pass']);
    Object.assign(r.clusters[0]!.checks[0]!, { id: 'acme/x', title: 'X holds', why: 'X matters', severity: 'low' });
    return r;
  };
  const plain = ctx();
  await runAuditCommand(withDeps(plain, { audit: async () => withWhy() }), opts(dir, { format: 'text' }));
  t.notMatch(plain.out(), 'X matters');
  const verbose = ctx();
  await runAuditCommand(withDeps(verbose, { audit: async () => withWhy() }), opts(dir, { format: 'text', verbose: 1 }));
  t.match(verbose.out(), 'why: X matters');
});
