/** One OpenSearch release line end to end: the broken lab answering as `version`, then fix, audit and migrate. */
import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { runCli } from '../cli.ts';
import { parseReport } from '../schema.ts';
import { startLab } from '../../../lab/src/index.ts';
import type { Report } from '../../../src/model/index.ts';

export async function lineTest(version: string): Promise<void> {
  const dir = t.testdir({});
  const scenario = parse(await readFile(new URL('../../../lab/scenarios/broken.yml', import.meta.url), 'utf8'));
  const file = join(dir, 'line.yml');
  await writeFile(file, stringify({ ...scenario, name: `broken-${version}`, version }));
  const lab = await startLab({ scenario: file, restartDelayMs: 50 });
  t.teardown(() => lab.stop());
  const cli = (args: string[]) => runCli([...args, '-i', lab.inventoryPath], { cwd: '/tmp' });

  t.test(`OpenSearch ${version}: GET / and the audit see this line`, async (t) => {
    const r = await cli(['audit', '--format', 'json']);
    t.equal(r.code, 1, r.err);
    const report = parseReport<Report>(r.out);
    t.same(
      report.clusters[0].checks.map((c) => c.status),
      ['fail', 'fail', 'fail', 'fail', 'fail'],
      'all five causes found',
    );
    const masters = report.clusters[0].nodes.filter((n) => n.roles.some((x) => /master|cluster_manager/.test(x)));
    t.same(masters.map((n) => n.name).sort(), ['m1', 'm2', 'm3'], 'the masters, whatever this line calls them');
  });

  t.test(`OpenSearch ${version}: fix then audit pass`, async (t) => {
    const r = await cli(['fix', '--yes', '--format', 'json', '--timeout', '20', '--backup-dir', join(dir, 'b')]);
    t.equal(r.code, 0, r.err);
    t.same(
      parseReport<Report>(r.out).clusters[0].after!.checks.map((c) => c.status),
      ['pass', 'pass', 'pass', 'pass', 'pass'],
    );
    t.equal((await cli(['audit', '--format', 'json'])).code, 0);
  });

  t.test(`OpenSearch ${version}: migrate jobs finds the queries to rewrite`, async (t) => {
    const r = await cli(['migrate', 'jobs', '--format', 'json']);
    t.equal(r.code, 1, r.err);
    t.ok((JSON.parse(r.out) as unknown[]).length > 0);
  });
}
