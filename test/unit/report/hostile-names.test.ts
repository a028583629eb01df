import t from 'tap';
import { noLeases } from '../../helpers/fix/fakes.ts';
import { join } from 'node:path';
import { renderReport } from '../../../src/report/render.ts';
import { runFix } from '../../../src/cli/commands/fix.ts';
import { settledAction } from '../../../src/fix/report.ts';
import { untouched } from '../../../src/fix/outcome.ts';
import type { Report } from '../../../src/model/index.ts';
import { captureContext, withDeps } from '../../helpers/cli.ts';
import { sample } from '../../helpers/report/sample.ts';

// clears the screen, then writes a fake line; a bidi override; and HTML
const HOSTILE = 'prod\u001b[2J\u001b[Hall fine\r\u202e<script>alert(1)</script>';

function hostile(): Report {
  const r = sample();
  r.clusters[0].name = HOSTILE;
  r.clusters[0].nodes[0].name = `m1\u001b]0;owned\u0007`;
  r.clusters[0].checks[1].reason = `true on \u001b[31mm1\u009b`;
  r.clusters[0].checks[1].findings[0].message = '<img src=x onerror=alert(1)>';
  return r;
}

const RAW = /[\u001b\u0007\u009b\u202e\r]/;

t.test(
  'text report: control characters from a hostile cluster or node name are shown escaped, never sent raw',
  async (t) => {
    const out = renderReport(hostile(), 'text');
    t.notMatch(out, RAW);
    t.match(out, 'prod\\x1b[2J\\x1b[Hall fine\\x0d\\u202e');
    t.match(out, 'true on \\x1b[31mm1\\x9b');
    const colored = renderReport(hostile(), 'text', { color: true });
    t.notMatch(colored.replace(/\u001b\[[0-9;]*m/g, ''), RAW, 'only our own colour codes remain');
    t.notMatch(colored, '\u001b[2J');
  },
);

t.test('markdown report: control characters escaped and HTML written as entities outside code', async (t) => {
  const out = renderReport(hostile(), 'markdown');
  t.notMatch(out, RAW);
  t.notMatch(out, /<script>|<img/);
  t.match(out, '&lt;script&gt;alert(1)&lt;/script&gt;');
  t.match(out, '&lt;img src=x onerror=alert(1)&gt;');
});

t.test('json keeps the name exactly (JSON escapes it), so nothing is lost for machines', async (t) => {
  t.equal(JSON.parse(renderReport(hostile(), 'json')).clusters[0].name, HOSTILE);
});

t.test('fix step lines escape a hostile cluster name', async (t) => {
  const dir = t.testdir({
    'inv.yml': 'all:\n  hosts:\n    m1: {ansible_host: 10.0.0.11, api_url: "https://10.0.0.1:9200"}\n',
  });
  const ctx = captureContext({ env: { HOME: dir } });
  const plan = (): Report => ({
    tool: 'smdoctor',
    version: '0',
    mode: 'audit',
    clusters: [
      {
        api_url: 'https://10.0.0.1:9200',
        name: HOSTILE,
        nodes: [],
        notes: [],
        checks: [
          {
            id: 'master-node-with-sme',
            order: 2,
            status: 'fail',
            reason: 'x',
            findings: [],
            actions: [
              {
                type: 'restart-service',
                host: 'm1\u001b[1A',
                service: 'opensearch',
                command: 'systemctl restart opensearch',
                status: 'planned',
              },
            ],
          },
        ],
      },
    ],
    summary: { clusters: 1, hosts: 1, unreachable: 0, checks_failed: 1 },
  });
  await runFix(
    withDeps(ctx, {
      signals: [],
      leases: noLeases,
      audit: async () => plan(),
      apply: async (r, o) => {
        const c = r.clusters[0];
        const done = { status: 'done', step: 1 } as const;
        o.onStep?.(c, settledAction(c.checks[0].actions[0], done), 1, done);
        return { interrupted: false, clusters: [{ ...untouched(c.api_url), actions: [done] }] };
      },
    }),
    {
      inventory: [join(dir, 'inv.yml')],
      forks: 1,
      timeout: 5,
      verbose: 0,
      format: 'json',
      backupDir: join(dir, 'bk'),
      yes: true,
    },
  );
  t.match(ctx.err(), /\[prod\\x1b\[2J/);
  t.notMatch(ctx.err(), RAW);
});
