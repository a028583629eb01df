import t from 'tap';
import { noLeases } from '../../helpers/fix/fakes.ts';
import { join } from 'node:path';
import { runFix } from '../../../src/cli/commands/fix.ts';
import type { RunDeps } from '../../../src/cli/context.ts';
import { exitCodeFor, UsageError } from '../../../src/base/errors.ts';
import { plannedActions } from '../../../src/fix/apply.ts';
import { untouched, type ActionOutcome } from '../../../src/fix/outcome.ts';
import type { CheckResult, Report } from '../../../src/model/index.ts';
import { captureContext, withDeps, type CaptureOptions } from '../../helpers/cli.ts';

const INVENTORY =
  'all:\n  vars:\n    api_url: https://10.0.0.1:9200\n  hosts:\n    m1:\n      ansible_host: 10.0.0.11\n';

function report(failing: boolean): Report {
  const check: CheckResult = failing
    ? {
        id: 'master-node-with-sme',
        order: 2,
        status: 'fail',
        reason: 'true on m1',
        findings: [],
        actions: [
          {
            type: 'restart-service',
            host: 'm1',
            service: 'opensearch',
            command: 'systemctl restart opensearch',
            status: 'planned',
          },
        ],
      }
    : { id: 'master-node-with-sme', order: 2, status: 'pass', reason: 'fine', findings: [], actions: [] };
  return {
    tool: 'smdoctor',
    version: '0',
    mode: 'audit',
    clusters: [{ api_url: 'https://10.0.0.1:9200', name: 'lab', nodes: [], notes: [], checks: [check] }],
    summary: { clusters: 1, hosts: 1, unreachable: 0, checks_failed: failing ? 1 : 0 },
  };
}

interface Case {
  name: string;
  io: CaptureOptions;
  yes?: boolean;
  /** Whether the plan has an action. */
  plan?: boolean;
  /** Status the fake apply gives every action. */
  applied?: 'done' | 'failed';
  /** Whether the audit after applying still fails. */
  stillFailing?: boolean;
  code: number | 'usage';
  applies: boolean;
  asks: boolean;
}

const cases: Case[] = [
  { name: 'no terminal and no --yes: refused', io: {}, code: 'usage', applies: false, asks: false },
  { name: 'terminal, answer n', io: { stdinTTY: true, stdin: 'n\n' }, code: 1, applies: false, asks: true },
  { name: 'terminal, empty answer', io: { stdinTTY: true, stdin: '\n' }, code: 1, applies: false, asks: true },
  { name: 'terminal, answer yes', io: { stdinTTY: true, stdin: 'YES\n' }, code: 0, applies: true, asks: true },
  { name: '--yes without a terminal', io: {}, yes: true, code: 0, applies: true, asks: false },
  { name: 'nothing to do', io: {}, yes: true, plan: false, code: 0, applies: false, asks: false },
  {
    name: 'nothing to do, no terminal and no --yes: still refused up front',
    io: {},
    plan: false,
    code: 'usage',
    applies: false,
    asks: false,
  },
  { name: 'a step failed', io: {}, yes: true, applied: 'failed', code: 3, applies: true, asks: false },
  { name: 'still failing after the fix', io: {}, yes: true, stillFailing: true, code: 1, applies: true, asks: false },
];

for (const c of cases) {
  t.test(c.name, async (t) => {
    const dir = t.testdir({ 'inv.yml': INVENTORY });
    const ctx = captureContext({ ...c.io, env: { HOME: dir } });
    let audits = 0;
    let applied = 0;
    const seams: Partial<RunDeps> = {
      signals: [],
      leases: noLeases,
      audit: async () => (audits++ === 0 ? report(c.plan ?? true) : report(c.stillFailing ?? false)),
      apply: async (r, o) => {
        applied++;
        t.equal(o.backup.dir.startsWith(join(dir, 'bk')), true, 'backups under --backup-dir');
        const failed = c.applied === 'failed';
        const outcome: ActionOutcome = failed
          ? { status: 'failed', step: 1, error: 'boom' }
          : { status: 'done', step: 1 };
        return {
          interrupted: false,
          clusters: r.clusters.map((k) => ({
            ...untouched(k.api_url),
            failed,
            actions: plannedActions(k).map(() => outcome),
          })),
        };
      },
    };
    const opts = {
      inventory: [join(dir, 'inv.yml')],
      forks: 1,
      timeout: 5,
      verbose: 0,
      format: 'json' as const,
      backupDir: join(dir, 'bk'),
      ...(c.yes ? { yes: true } : {}),
    };
    let code: number;
    try {
      code = await runFix(withDeps(ctx, seams), opts);
    } catch (err) {
      t.type(err, UsageError);
      t.match((err as Error).message, 'fix changes production: pass --yes, or run it from a terminal');
      code = exitCodeFor(err);
    }
    t.equal(code, c.code === 'usage' ? 2 : c.code, 'exit code');
    t.equal(applied, c.applies ? 1 : 0, 'applied');
    t.equal(/Apply 1 action on 1 host in 1 cluster\? \[y\/N\]/.test(ctx.err()), c.asks, 'asked');
    t.equal(
      /FAIL 2 master-node-with-sme[^\n]*\n[\s\S]*restart-service on m1/.test(ctx.err()),
      c.asks,
      'the plan is shown to whoever is asked, and only then',
    );
    if (c.code !== 'usage') {
      const doc = JSON.parse(ctx.out()) as Report;
      t.equal(doc.mode, 'fix', 'json report on stdout, mode fix');
      if (c.applies)
        t.match(doc.clusters[0], {
          after: { checks: [{ id: 'master-node-with-sme', status: c.stillFailing ? 'fail' : 'pass' }] },
        });
      if (c.applies) t.equal(audits, 2, 'audited again after applying');
    }
    if (c.plan === false && c.code !== 'usage') t.match(ctx.err(), /nothing to fix/);
    if (c.code === 'usage') t.equal(audits, 0, 'refused before gathering anything');
  });
}
