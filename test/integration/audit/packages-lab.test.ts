/**
 * Nodes laid out as the engine's packages lay them out (lab scenario `packages`): config in etc/opensearch outside
 * the program's usr/share/opensearch. m1, d1 and web1 are found through their processes only (OPENSEARCH_PATH_CONF,
 * OSD_PATH_CONF, the pid file, the command line); m2 and d2 through the inventory's variables. Audit, the fleet pack,
 * export ansible and fix each read and write the files where they are, over real sshd.
 */
import t from 'tap';
import { chmod, readFile, stat, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { parseReport } from '../../helpers/schema.ts';
import { startLab } from '../../../lab/src/index.ts';
import type { Report } from '../../../src/model/index.ts';

t.setTimeout(600_000);
const lab = await startLab({ scenario: 'packages', restartDelayMs: 50 });
t.teardown(() => lab.stop());
const node = (name: string) => join(lab.dir, 'nodes', name);
const etc = (name: string) => join(node(name), 'etc', 'opensearch');
const audit = async (...extra: string[]) => {
  const r = await runCli(['audit', '--format', 'json', '--timeout', '30', '-i', lab.inventoryPath, ...extra], {
    cwd: '/tmp',
  });
  return { ...r, report: parseReport<Report>(r.out) };
};

t.test('audit: each node read where the packages keep it, and the report says why', async (t) => {
  const { report, err, out } = await audit();
  const c = report.clusters[0]!;
  const layout = (host: string) => c.nodes.find((n) => n.host === host)?.layout;
  for (const h of ['m1', 'd1'])
    t.match(
      layout(h),
      {
        engine_config: { path: etc(h), why: /^the running process's OPENSEARCH_PATH_CONF \(pid \d+\)$/ },
        engine_home: { path: join(node(h), 'usr/share/opensearch'), why: /^the running process's command line/ },
      },
      `${h}: from its process alone`,
    );
  for (const h of ['m2', 'd2'])
    t.match(
      layout(h),
      {
        engine_config: { path: etc(h), why: 'set in the inventory' },
        engine_home: { path: join(node(h), 'usr/share/opensearch'), why: 'set in the inventory' },
      },
      `${h}: from the inventory`,
    );
  t.match(layout('web1')?.web_config, {
    path: join(node('web1'), 'etc/opensearch-dashboards'),
    why: /^the running process's OSD_PATH_CONF/,
  });
  t.notMatch(err + out, /was not found on host/, 'every config found');
  const byId = new Map(c.checks.map((k) => [k.id, k]));
  const plugins = byId.get('master-plugins')!;
  t.equal(plugins.status, 'fail', plugins.reason);
  const commands = plugins.actions.map((a) => ('command' in a ? String(a.command) : ''));
  t.match(
    commands.join('\n'),
    `env OPENSEARCH_PATH_CONF=${etc('m1')} ${join(node('m1'), 'usr/share/opensearch/bin/opensearch-keystore')} remove`,
    "the keystore tool told the node's config folder",
  );
  t.equal(byId.get('dashboards-hosts')!.status, 'fail', 'web1 points at a master: its file, where it is, is edited');
  t.match(
    byId.get('dashboards-hosts')!.actions.map((a) => ('path' in a ? a.path : '')),
    [join(node('web1'), 'etc/opensearch-dashboards/opensearch_dashboards.yml')],
  );
  const text = (
    await runCli(['audit', '-i', lab.inventoryPath, '--format', 'text', '--timeout', '30'], { cwd: '/tmp' })
  ).out;
  t.match(text, `config ${etc('m2')} (set in the inventory)`, 'the text report says it too');
});

t.test('the fleet pack reads jvm.options, certificates and the keystore in the config folder', async (t) => {
  const { report } = await audit('--pack', 'builtin:fleet');
  const checks = new Map(report.clusters[0]!.checks.map((k) => [k.id, k]));
  for (const id of ['heap-size', 'tls-certificate-expiry', 'demo-certificates', 'keystore-loaded'])
    t.equal(checks.get(`fleet/${id}`)?.status, 'pass', `${id}: ${checks.get(`fleet/${id}`)?.reason}`);
});

t.test(
  'export ansible writes the files at their paths; fix edits them where they are, keeping their mode',
  async (t) => {
    const dir = t.testdir({});
    const planFile = join(dir, 'plan.json');
    const web = join(node('web1'), 'etc/opensearch-dashboards/opensearch_dashboards.yml');
    await chmod(web, 0o640);
    const a = await runCli(['audit', '-i', lab.inventoryPath, '--format', 'json', '-o', planFile, '--timeout', '30'], {
      cwd: '/tmp',
    });
    t.equal(a.code, 1, a.err);
    const x = await runCli(['export', 'ansible', '--plan', planFile, '-i', lab.inventoryPath, '-o', join(dir, 'pb')], {
      cwd: '/tmp',
    });
    t.equal(x.code, 0, x.err);
    t.ok(existsSync(join(dir, 'pb', 'files', 'hosts', 'web1', web)), 'the new bytes, under the file’s own path');
    const f = await runCli(
      ['fix', '-i', lab.inventoryPath, '--yes', '--format', 'json', '--timeout', '30', '--backup-dir', join(dir, 'bk')],
      { cwd: '/tmp' },
    );
    const fixed = parseReport<Report>(f.out);
    t.match(fixed.fix, { failed: 0 }, f.err);
    t.notMatch(
      await readFile(web, 'utf8'),
      new RegExp(lab.nodes.find((n) => n.name === 'm1')!.address.replace(/\./g, '\\.')),
    );
    t.equal((await stat(web)).mode & 0o777, 0o640, 'its mode kept');
    t.notOk(
      existsSync(join(node('m1'), 'usr/share/opensearch/plugins/sm-job-scheduler')),
      'the plugin gone from its home',
    );
    t.notMatch(await readFile(join(etc('m1'), 'opensearch.keystore'), 'utf8'), /jobscheduler\.email\.pass/);
    t.same(
      await readdir(join(node('m1'), 'usr/share/opensearch')).then((l) => l.includes('config')),
      false,
      'no config/ made in the home',
    );
    const after = await audit();
    t.same(
      after.report.clusters[0]!.checks.filter((k) => k.status !== 'pass').map((k) => [k.id, k.reason]),
      [],
      'all pass after the fix',
    );
  },
);
