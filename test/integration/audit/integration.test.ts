/** audit over real SSH against the lab: real sshd processes and the emulated API on loopback, stopped in teardown. */
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyPatch } from 'diff';
import { parse, stringify } from 'yaml';
import { runCli } from '../../helpers/cli.ts';
import { parseReport } from '../../helpers/schema.ts';
import { startLab, type Lab } from '../../../lab/src/index.ts';
import { loadInventory } from '../../../src/inventory/load.ts';
import { reachHost as hostConfig } from '../../../src/reach/index.ts';
import { connectHost } from '../../../src/reach/deps.ts';
import type { Report } from '../../../src/model/index.ts';

async function audit(inventory: string, ...extra: string[]) {
  const r = await runCli(['audit', '-i', inventory, '--format', 'json', '--timeout', '20', ...extra], { cwd: '/tmp' });
  return { code: r.code, report: parseReport<Report>(r.out), err: r.err };
}

const status = (r: Report, i = 0) => Object.fromEntries(r.clusters[i]!.checks.map((c) => [c.id, c.status]));
const failedHosts = (r: Report, id: string) =>
  [
    ...new Set(
      r.clusters[0]!.checks.find((c) => c.id === id)!
        .findings.map((f) => f.host)
        .filter(Boolean),
    ),
  ].sort();

async function lab(t: { teardown: (fn: () => unknown) => void }, scenario: string): Promise<Lab> {
  const l = await startLab({ scenario });
  t.teardown(() => l.stop());
  return l;
}

/** An edited copy of the lab's inventory: edit gets the parsed YAML. */
function inventoryCopy(l: Lab, dir: string, edit: (inv: any) => void): string {
  const inv = parse(readFileSync(l.inventoryPath, 'utf8'));
  edit(inv);
  const file = join(dir, 'inventory.yml');
  writeFileSync(file, stringify(inv));
  return file;
}

t.test(
  'broken: all five checks fail on the right hosts; diffs apply to the files over ssh; variants of the inventory',
  async (t) => {
    const l = await lab(t, 'broken');
    const { code, report } = await audit(l.inventoryPath);
    t.equal(code, 1);
    t.same(status(report), {
      'base-limit-document': 'fail',
      'master-node-with-sme': 'fail',
      'dashboards-hosts': 'fail',
      'master-plugins': 'fail',
      'limits-index-replicas': 'fail',
    });
    t.same(failedHosts(report, 'master-node-with-sme'), ['m1']);
    t.same(failedHosts(report, 'dashboards-hosts'), ['web1']);
    t.same(failedHosts(report, 'master-plugins'), ['m2']);
    t.match(report.summary, { clusters: 1, hosts: 7, unreachable: 0, checks_failed: 5 });

    const inv = await loadInventory(l.inventoryPath);
    const edits = report.clusters[0]!.checks.flatMap((c) => c.actions).filter((a) => a.diff);
    t.ok(edits.length >= 2, 'file edits are planned with diffs');
    for (const a of edits) {
      const tr = await connectHost(hostConfig(inv, a.host!, {}), { timeout: 20 });
      try {
        const text = await tr.readFile(a.path!);
        const patched = applyPatch(text ?? '', a.diff!);
        t.type(patched, 'string', `${a.host}:${a.path} diff applies`);
        t.not(patched, text, `${a.host}: and changes the file`);
      } finally {
        await tr.close();
      }
    }

    t.test('an unreachable host: exit 3, the others still audited', async (t) => {
      const file = inventoryCopy(l, t.testdir({}), (y) => {
        const ghost = {
          ...y.all.children.data.hosts.d3,
          ansible_host: `${l.nodes[0]!.address.split('.').slice(0, 3).join('.')}.250`,
        };
        y.all.children.data.hosts.ghost = ghost;
      });
      const r = await audit(file);
      t.equal(r.code, 3);
      t.match(r.err, /unreachable: ghost/);
      t.match(r.report.summary, { hosts: 8, unreachable: 1 });
      t.match(r.report.clusters[0]!.notes, [{ host: 'ghost', evidence: { kind: 'host-unreachable' } }]);
      t.equal(status(r.report)['master-node-with-sme'], 'fail', 'the rest is still checked');
    });

    t.test('a cluster node missing from the inventory: a note names it', async (t) => {
      const file = inventoryCopy(l, t.testdir({}), (y) => delete y.all.children.cluster_managers.hosts.m3);
      const r = await audit(file);
      t.match(r.report.clusters[0]!.notes, [
        {
          message: /m3 .*not in the inventory/,
          evidence: {
            kind: 'node-not-in-inventory',
            node: 'm3',
            incomplete_checks: ['master-node-with-sme', 'dashboards-hosts', 'master-plugins'],
          },
        },
      ]);
      t.match(
        r.report.clusters[0]!.nodes.find((n) => n.name === 'm3'),
        { host: null, reachable: false },
      );
    });
  },
);

t.test('healthy: everything passes, exit 0', async (t) => {
  const l = await lab(t, 'healthy');
  const { code, report, err } = await audit(l.inventoryPath);
  t.equal(code, 0, err);
  t.same(new Set(Object.values(status(report))), new Set(['pass']));
  t.same(report.clusters[0]!.notes, []);
});

const SINGLE = [
  'base-limit-document',
  'master-node-with-sme',
  'dashboards-hosts',
  'master-plugins',
  'limits-index-replicas',
];
for (const id of SINGLE) {
  t.test(`scenario ${id}: only that check fails`, async (t) => {
    const l = await lab(t, id);
    const { code, report } = await audit(l.inventoryPath);
    t.equal(code, 1);
    const failed = Object.entries(status(report))
      .filter(([, s]) => s !== 'pass')
      .map(([k, s]) => `${k}:${s}`);
    t.same(failed, [`${id}:fail`]);
  });
}

t.test('fleet: one section per cluster', async (t) => {
  const l = await lab(t, 'fleet');
  const { report } = await audit(l.inventoryPath);
  t.equal(report.clusters.length, 2);
  t.equal(report.summary.clusters, 2);
  t.not(report.clusters[0]!.api_url, report.clusters[1]!.api_url);
  for (const c of report.clusters) t.equal(c.checks.length, 5, `${c.api_url}: five checks`);
});
