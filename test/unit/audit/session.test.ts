/** The audit session below the CLI: what it reads first, what it hands the audit, and what it tells through its deps. */
import t from 'tap';
import { join } from 'node:path';
import { openAuditSession, type AuditSessionDeps } from '../../../src/audit/session.ts';
import type { RunAuditOptions } from '../../../src/audit/run.ts';
import { parseInventory } from '../../../src/inventory/load.ts';
import type { Report } from '../../../src/model/index.ts';

const INV = `all:
  vars: {api_url: 'https://10.0.0.1:9200'}
  hosts:
    m1: {ansible_host: 10.0.0.11}
    d1: {ansible_host: 10.0.0.12}
`;

const failing = (o: RunAuditOptions): Report => ({
  tool: 'smdoctor',
  version: '0',
  mode: 'audit',
  clusters: [
    {
      api_url: 'https://10.0.0.1:9200',
      name: 'c1',
      nodes: [],
      notes: [],
      checks: [{ id: 'master-plugins', order: 4, status: 'fail', reason: 'r', findings: [], actions: [] }],
    },
  ],
  summary: { clusters: 1, hosts: o.hosts.length, unreachable: 0, checks_failed: 1 },
});

function deps(dir: string, over: Partial<AuditSessionDeps> = {}) {
  const said: string[] = [];
  const seen = { opened: 0, settled: 0, audits: [] as RunAuditOptions[] };
  const d: AuditSessionDeps = {
    cwd: dir,
    maxBytes: 1 << 20,
    now: () => Date.parse('2030-06-01T12:00:00Z'),
    openInventory: async () => {
      seen.opened++;
      const inv = parseInventory(INV, join(dir, 'inv.yml'));
      // what loading a file with a plain-text api_password says (test/unit/cli/codes.test.ts)
      const pos = { file: join(dir, 'inv.yml'), line: 4, col: 5 };
      return { ...inv, warnings: [{ code: 'plain-password', pos, message: 'the API password sits in the clear' }] };
    },
    warn: (m) => said.push(m),
    settled: () => seen.settled++,
    audit: async (o) => {
      seen.audits.push(o);
      return failing(o);
    },
    ...over,
  };
  return { d, said, seen };
}

const base = { pack: [], forks: 3, timeout: 7, env: {} };

t.test('a bad waivers file is refused before the inventory is opened', async (t) => {
  const dir = t.testdir({ 'w.yml': 'smdoctor_waivers: 1\nwaivers: nope\n' });
  const { d, seen } = deps(dir);
  await t.rejects(openAuditSession({ ...base, waivers: 'w.yml' }, d));
  t.equal(seen.opened, 0, 'the inventory was not read');
});

t.test('the session audits the selected hosts with the given options, the waivers applied by its clock', async (t) => {
  const dir = t.testdir({
    'w.yml': 'smdoctor_waivers: 1\nwaivers:\n  - check: master-plugins\n    reason: OPS-7\n    expires: 2030-06-01\n',
  });
  const { d, said, seen } = deps(dir);
  const s = await openAuditSession({ ...base, waivers: 'w.yml', limit: 'm1', only: ['master-plugins'] }, d);
  t.same(s.hosts, ['m1'], '--limit selects');
  t.match(said, [/inv\.yml: .*clear/], 'the plain-text password is told through warn');
  const r = await s.audit();
  t.equal(r.clusters[0]!.checks[0]!.status, 'waived', 'waived on its last day');
  t.match(seen.audits[0], { hosts: ['m1'], forks: 3, timeout: 7, only: ['master-plugins'] });
  t.equal(seen.settled, 1, 'told when the audit ended');
  await s.audit();
  t.equal(seen.audits.length, 2, 'the session audits again (fix after applying, serve every cycle)');
});

t.test('a failed audit is still told as settled; a --limit that selects nothing refuses the session', async (t) => {
  const dir = t.testdir({});
  const { d, seen } = deps(dir, {
    audit: async () => {
      throw new Error('boom');
    },
  });
  const s = await openAuditSession(base, d);
  await t.rejects(s.audit(), /boom/);
  t.equal(seen.settled, 1);
  await t.rejects(openAuditSession({ ...base, limit: 'nope' }, deps(dir).d), { message: /--limit: 'nope'/ });
});
