/**
 * The demo lab's plan, exported and run by real ansible-playbook over SSH: --check changes nothing, a file edited after
 * the export stops the play before any change, the run fixes everything audit found, a second run changes nothing.
 * m1's config is a symlink throughout (as packages and config management often leave it): fix edits through the link,
 * and so must the playbook: its pin reads the target's sha256 (a hand edit of the target stops the play), its copy
 * writes the target (the backup beside it) and the link stays a link; web1's config is a plain file.
 */
import t from 'tap';
import {
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  realpath,
  rename,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { execa } from 'execa';
import { startLab, type Lab } from '../../../lab/src/index.ts';
import type { ActionOf } from '../../../src/model/index.ts';
import { audit, exportPlan, playbook, statuses } from '../../helpers/export/ansible.ts';

// a lab, six audits and six playbook runs over SSH: slow on a loaded machine
t.setTimeout(1_200_000);

let lab: Lab;
t.before(async () => {
  lab = await startLab({ scenario: 'broken', restartDelayMs: 100 });
});
t.teardown(async () => {
  await lab?.stop();
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

t.test('export, --check, a drifted file, the run, the rerun; m1 through a symlink', async (t) => {
  const work = await mkdtemp(join(tmpdir(), 'smdoctor-export-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  const inv = lab.inventoryPath;
  // m1's opensearch.yml becomes a link to a managed copy, the lab's broken bytes in it (the node runs them already)
  const m1Node = lab.nodes.find((n) => n.name === 'm1')!;
  const link = join(m1Node.searchHome, 'config', 'opensearch.yml');
  const target = join(lab.dir, 'managed', 'm1-opensearch.yml');
  await mkdir(join(lab.dir, 'managed'));
  await rename(link, target);
  await symlink(target, link);
  const plan = join(work, 'plan.json');
  const before = await audit(inv, plan);
  t.equal(before.code, 1, 'the demo lab has findings');
  const edits = before.report.clusters[0]!.checks.flatMap((k) => k.actions).filter(
    (a): a is ActionOf<'set-yaml' | 'set-hosts'> => a.type === 'set-yaml' || a.type === 'set-hosts',
  );
  t.equal(edits.length, 2);
  t.ok(
    edits.some((a) => a.type === 'set-yaml' && a.host === 'm1' && a.path === link),
    "the plan edits m1's file by its link",
  );
  const original = await Promise.all(edits.map((a) => readFile(a.path)));
  const dir = join(work, 'playbook');
  const ex = await exportPlan(plan, inv, dir);
  t.equal(ex.code, 0, 'exported');
  const site = await readFile(join(dir, 'site.yml'), 'utf8');
  t.notMatch(site, await readFile(join(lab.dir, 'api-password'), 'utf8').then((p) => p.trim()), 'no secret in it');
  t.match(site, /# check master-node-with-sme \(its finding: steps\.\d+\.finding in files\/cluster-1\.json\)/);
  t.match(
    await readFile(join(dir, 'files', 'cluster-1.json'), 'utf8'),
    /node\.attr\.node_with_sme is true on master m1/,
  );
  const lint = await execa('ansible-lint', ['--offline', '-p', 'site.yml'], {
    cwd: dir,
    reject: false,
    env: { NO_COLOR: '1' },
  });
  t.equal(lint.exitCode, 0, 'ansible-lint passes (production profile)');
  if (lint.exitCode !== 0) t.comment(lint.stdout, lint.stderr);

  const check = await playbook(lab, inv, dir, '--check', '--diff');
  if (check.code !== 0) t.comment(check.out);
  t.equal(check.code, 0, '--check --diff runs');
  t.match(check.out, /-node\.attr\.node_with_sme: true\n\+node\.attr\.node_with_sme: false/, 'the diff is shown');
  t.same((await Promise.all(edits.map((a) => readFile(a.path)))).map(sha), original.map(sha), '--check wrote no file');
  t.same(statuses((await audit(inv)).report), statuses(before.report), '--check changed nothing audit sees');

  // someone edits m1's file after the export: the play stops before any change in the cluster
  const m1 = edits.find((a) => a.host === 'm1')!;
  const i1 = edits.indexOf(m1);
  await writeFile(m1.path, Buffer.concat([original[i1]!, Buffer.from('# edited by hand\n')]));
  const drifted = await playbook(lab, inv, dir);
  t.not(drifted.code, 0);
  t.match(drifted.out, /m1:\S+opensearch\.yml changed since the plan/);
  t.equal(drifted.changed, 0, 'nothing changed');
  t.same(statuses((await audit(inv)).report), statuses(before.report), 'every finding is still there');
  await writeFile(m1.path, original[i1]!);

  const run = await playbook(lab, inv, dir);
  if (run.code !== 0) t.comment(run.out);
  t.equal(run.code, 0, 'the playbook runs');
  t.ok(run.changed > 0);
  const after = await audit(inv);
  t.equal(after.code, 0, 'audit finds nothing after the playbook');
  t.same(
    statuses(after.report),
    statuses(before.report).map((s) => s.replace(/:fail$/, ':pass')),
  );
  t.ok((await lstat(link)).isSymbolicLink(), 'the link is still a link');
  t.equal(await readlink(link), target);
  t.same(await readFile(target), await readFile(join(dir, 'files', 'hosts', 'm1', link)), 'its target was written');
  for (const [i, a] of edits.entries()) {
    const now = await readFile(a.path);
    t.same(now, await readFile(join(dir, 'files', 'hosts', a.host, a.path)), `${a.host}: the exported bytes`);
    // beside the file itself: for m1 that is its link's target
    const real = await realpath(a.path);
    const backups = (await readdir(dirname(real))).filter((f) => f.startsWith(`${basename(real)}.`) && f.endsWith('~'));
    t.equal(backups.length, 1, `${a.host}: one backup beside the file`);
    t.same(await readFile(join(dirname(real), backups[0]!)), original[i], `${a.host}: the backup holds the old bytes`);
  }

  const again = await playbook(lab, inv, dir);
  if (again.code !== 0) t.comment(again.out);
  t.equal(again.code, 0, 'it runs again');
  t.equal(again.changed, 0, 'a second run changes nothing');
});

t.test('a restart planned on its own (restart pending): the playbook restarts the node once', async (t) => {
  const inv = lab.inventoryPath;
  const m1 = lab.nodes.find((n) => n.name === 'm1')!;
  const yml = join(m1.searchHome, 'config', 'opensearch.yml');
  const fixed = await readFile(yml);
  // the node runs with node_with_sme=true while its file already says false
  await writeFile(yml, fixed.toString('latin1').replace('node_with_sme: false', 'node_with_sme: true'), 'latin1');
  await execa(join(lab.dir, 'bin', 'labctl'), ['m1', 'restart', 'opensearch']);
  await writeFile(yml, fixed);
  const work = await mkdtemp(join(tmpdir(), 'smdoctor-export-'));
  t.teardown(() => rm(work, { recursive: true, force: true }));
  const plan = join(work, 'plan.json');
  const before = await audit(inv, plan);
  const actions = before.report.clusters[0]!.checks.flatMap((k) => k.actions).map((a) => `${a.type} ${a.host}`);
  t.same(actions, ['restart-service m1'], 'only a restart is planned');
  const dir = join(work, 'playbook');
  t.equal((await exportPlan(plan, inv, dir)).code, 0, 'exported');
  const run = await playbook(lab, inv, dir);
  if (run.code !== 0) t.comment(run.out);
  t.equal(run.code, 0, 'the playbook runs');
  t.match(run.out, /TASK \[Node m1 \| restart opensearch\][^\n]*\nchanged:/, 'm1 is restarted');
  t.equal((await audit(inv)).code, 0, 'audit finds nothing');
  const again = await playbook(lab, inv, dir);
  t.equal(again.code, 0, 'it runs again');
  t.equal(again.changed, 0, 'and restarts nothing');
});
