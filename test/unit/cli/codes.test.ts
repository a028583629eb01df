/** The CLI decides on the codes outcomes and warnings carry, never on their wording: each case rewords the text. */
import t from 'tap';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { auditWarnings } from '../../../src/audit/session.ts';
import { refusals } from '../../../src/cli/commands/fix.ts';
import { sayTo } from '../../../src/cli/context.ts';
import { auditOutcome, type Reason } from '../../../src/facts/outcome.ts';
import { fixOutcome } from '../../../src/fix/plan.ts';
import { loadInventory } from '../../../src/inventory/load.ts';
import type { Inventory, InventoryWarning } from '../../../src/inventory/types.ts';
import type { ClusterReport, Report } from '../../../src/model/index.ts';
import { withRun } from '../../../src/base/run-scope.ts';

t.test('fix, nothing left to run: the refusals are said, whatever their words; the rest is not', async (t) => {
  const cases: Array<{ reason: Reason; said: boolean }> = [
    { reason: { code: 'refused', text: 'c1: the plan and the cluster part ways at node n4' }, said: true },
    { reason: { code: 'refused', text: 'c1: another run holds this cluster' }, said: true },
    { reason: { code: 'no-re-audit', text: 'c1: drift: node n4 joined' }, said: false },
    { reason: { code: 'step-failed', text: 'c1: lease: someone else holds it' }, said: false },
    { reason: { code: 'interrupted', text: 'drift: lease: ' }, said: false },
  ];
  for (const c of cases)
    t.same(refusals({ code: 3, reasons: [c.reason] }), c.said ? [c.reason] : [], `${c.reason.code}: ${c.reason.text}`);
});

const cluster = (o: Partial<ClusterReport>): ClusterReport => ({
  api_url: 'https://c1:9200',
  name: 'c1',
  nodes: [],
  notes: [],
  checks: [],
  ...o,
});
const report = (clusters: ClusterReport[], o: Partial<Report> = {}): Report =>
  ({ tool: 'smdoctor', version: '0', mode: 'fix', clusters, summary: {}, ...o }) as unknown as Report;

t.test('outcomes carry the code of each reason beside its text', async (t) => {
  const failed = {
    type: 'reset-allocation',
    method: 'PUT',
    api_path: '/_cluster/settings',
    body: {},
    status: 'failed',
    error: 'exit 1',
  } as const;
  const cases: Array<{ name: string; codes: string[]; of: () => Reason[] }> = [
    {
      name: 'a refusal in any words',
      codes: ['refused', 'refused'],
      of: () => fixOutcome(report([cluster({ refused: ['a new wording', 'drift: x'] })]), null).reasons,
    },
    {
      name: 'a failed step, then the interruption',
      codes: ['step-failed', 'interrupted'],
      of: () =>
        fixOutcome(
          report([cluster({ actions: [failed] })], { fix: { done: 0, failed: 1, skipped: 0, interrupted: true } }),
          null,
        ).reasons,
    },
    {
      name: 'nothing went wrong, but no re-audit',
      codes: ['no-re-audit'],
      of: () => fixOutcome(report([]), null).reasons,
    },
    {
      name: 'a host not reached',
      codes: ['unaudited'],
      of: () =>
        auditOutcome(
          report([
            cluster({
              notes: [{ message: 'x', host: 'h1', evidence: { kind: 'host-unreachable' } }],
            }),
          ]),
        ).reasons,
    },
  ];
  for (const c of cases)
    t.same(
      c.of().map((r) => r.code),
      c.codes,
      c.name,
    );
});

t.test('audit repeats the plain-text api_password warning by its code, not its words', async (t) => {
  const warning = (code: InventoryWarning['code'], message: string, file: string): InventoryWarning => ({
    code,
    message,
    pos: { file },
  });
  const inventory = {
    file: 'a.yml',
    hosts: new Map(),
    groups: new Map(),
    warnings: [
      warning('plain-password', 'the API password sits in the clear', 'a.yml'),
      warning('skipped', 'api_password is written in plain text: encrypt it with ansible-vault', 'b.yml'),
      warning('dangling-link', 'api_password is written in plain text', 'c.yml'),
    ],
  } as Inventory;
  t.same(auditWarnings(inventory), ['a.yml: the API password sits in the clear']);
  t.same(auditWarnings({ ...inventory, warnings: undefined }), []);
});

t.test('the inventory gives each warning its code', async (t) => {
  const dir = t.testdir({
    'plain.yml': 'all:\n  hosts:\n    h1:\n      api_password: plain-pw-1\n',
    'skipped.yml': 'all:\n  host:\n    a:\n  hosts:\n    b:\n',
  });
  // a run of its own: the password read here is remembered there, not for the other tests of the process
  await withRun(async () => {
    t.match((await loadInventory(join(dir, 'plain.yml'))).warnings, [{ code: 'plain-password' }]);
    t.match((await loadInventory(join(dir, 'skipped.yml'))).warnings, [{ code: 'skipped' }]);
  });
});

t.test('standard error: the label as written, the message escaped and redacted, raw text as given', async (t) => {
  const out = new PassThrough();
  let text = '';
  out.on('data', (b: Buffer) => (text += b.toString()));
  const say = sayTo(out);
  say('c1: token: s3cr3t', 'incomplete');
  say('a\x1b[2Jb', '--history /x');
  say.raw('\x1b[1mApply?\x1b[0m ');
  t.equal(text, 'smdoctor: incomplete: c1: token: ********\nsmdoctor: --history /x: a\\x1b[2Jb\n\x1b[1mApply?\x1b[0m ');
});
