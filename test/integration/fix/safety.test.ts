/**
 * fix against one broken lab, where it could hurt: a declined prompt, a file edited after the audit, an unwritable
 * backup folder, a hanging restart, secrets on a failing command's stderr; then a second fix finishes the work.
 * The subtests run in order on the same lab: each leaves the state the next one starts from.
 */
import t from 'tap';
import { leftoverProcesses } from '../../helpers/processes.ts';
import { appendFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { runCli, captureContext, withDeps } from '../../helpers/cli.ts';
import { startLab } from '../../../lab/src/index.ts';
import { runFix } from '../../../src/cli/commands/fix.ts';
import { runAudit } from '../../../src/audit/run.ts';
import { restartService } from '../../../src/fix/restart.ts';
import type { RunDeps } from '../../../src/cli/context.ts';
import type { Action, Report } from '../../../src/model/index.ts';
import { fixArgs } from '../../helpers/fix-args.ts';

const lab = await startLab({ scenario: 'broken', restartDelayMs: 50 });
t.teardown(() => lab.stop());
const work = await mkdtemp(join(tmpdir(), 'smdoctor-fix-safety-'));
t.teardown(() => rm(work, { recursive: true, force: true }));
const actionsOf = (r: Report): Action[] => r.clusters.flatMap((c) => c.checks.flatMap((k) => k.actions));
const steps = (r: Report) => actionsOf(r).map((a) => `${a.type}${a.host ? ` ${a.host}` : ''} ${a.status}`);

async function fix(inventory: string, backupDir: string, ...extra: string[]) {
  const r = await runCli(fixArgs(inventory, { timeout: 20, backupDir }, ...extra), { cwd: '/tmp' });
  return { ...r, report: JSON.parse(r.out) as Report };
}

async function plan(): Promise<Action[]> {
  const r = await runCli(['audit', '-i', lab.inventoryPath, '--format', 'json', '--timeout', '20'], { cwd: '/tmp' });
  return actionsOf(JSON.parse(r.out) as Report);
}

/** An inventory like the lab's with m1's variables changed. */
async function inventoryWith(
  name: string,
  m1: Record<string, unknown>,
  all: Record<string, unknown> = {},
): Promise<string> {
  const inv = parse(await readFile(lab.inventoryPath, 'utf8'));
  Object.assign(inv.all.children.cluster_managers.hosts.m1, m1);
  Object.assign(inv.all.vars, all);
  const file = join(lab.dir, `inventory-${name}.yml`);
  await writeFile(file, stringify(inv));
  return file;
}

/** Content, inode and mtime: a rename or an in-place write both show. */
const fingerprint = async (f: string) => {
  const s = await stat(f);
  return { text: await readFile(f, 'utf8'), ino: s.ino, mtimeMs: s.mtimeMs };
};
const temps = async (f: string) => (await readdir(dirname(f))).filter((n) => n.startsWith('.smdoctor.'));

const first = await plan();
const yml = first.find((a) => a.type === 'set-yaml' && a.host === 'm1')!.path!;

t.test('consent: any answer but y/yes changes nothing', async (t) => {
  const before = await fingerprint(yml);
  const backupDir = join(work, 'declined');
  for (const answer of ['n\n', 'no\n', 'yess\n', 'y es\n', '\n', '']) {
    const r = await runCli(fixArgs(lab.inventoryPath, { yes: false, backupDir }), {
      cwd: '/tmp',
      stdinTTY: true,
      stdin: answer,
    });
    t.equal(r.code, 1, `${JSON.stringify(answer)}: findings remain`);
    t.match(r.err, /Apply \d+ actions? .*\[y\/N\]/);
    t.ok(
      actionsOf(JSON.parse(r.out) as Report).every((a) => a.status === 'planned'),
      'nothing ran',
    );
  }
  t.same(await fingerprint(yml), before, 'config untouched');
  await t.rejects(stat(backupDir), { code: 'ENOENT' }, 'no backup taken either');
  t.same(
    (await plan()).map((a) => `${a.type} ${a.host ?? ''}`),
    first.map((a) => `${a.type} ${a.host ?? ''}`),
    'the cluster still needs every action',
  );
});

/** fix with m1's config edited by hand right after audit number `after` (0: the first; 1: the one under the lease). */
async function fixEditedAfter(after: number, backupDir: string) {
  const ctx = captureContext({ env: { HOME: work } });
  let audits = 0;
  let edited = '';
  const code = await runFix(
    withDeps(ctx, {
      signals: [],
      audit: async (o) => {
        const r = await runAudit(o);
        if (audits++ === after) {
          await appendFile(yml, '# edited by hand after the audit\n');
          edited = await readFile(yml, 'utf8');
        }
        return r;
      },
    }),
    { inventory: [lab.inventoryPath], forks: 5, timeout: 20, verbose: 0, format: 'json', backupDir, yes: true },
  );
  const report = JSON.parse(ctx.out()) as Report;
  const edit = actionsOf(report).find((a) => a.type === 'set-yaml' && a.host === 'm1')!;
  return { code, audits, report, edit, edited, err: ctx.err() };
}

t.test('the config changed between audit and apply: not written, not backed up', async (t) => {
  // the second audit is the one under the lease, whose plan runs
  const { code, report, edit, edited } = await fixEditedAfter(1, join(work, 'changed'));
  t.equal(code, 3, 'exit 3');
  t.match(edit, { status: 'failed', error: /changed since the audit.*nothing written/ });
  t.equal(await readFile(yml, 'utf8'), edited, 'the hand edit is still there, byte for byte');
  t.same(await temps(yml), [], 'no temp file');
  t.notOk(edit.backup, 'no backup recorded');
  const later = actionsOf(report).slice(actionsOf(report).indexOf(edit) + 1);
  t.ok(later.length > 0 && later.every((a) => a.status === 'skipped'), steps(report).join('; '));
});

t.test(
  'the config changed between the audit and taking the lease: the cluster is refused, naming the drift',
  async (t) => {
    const { code, audits, edit, edited, err } = await fixEditedAfter(0, join(work, 'drift'));
    t.equal(code, 3, 'exit 3');
    t.equal(audits, 2, 'read again under the lease');
    t.match(edit, { status: 'skipped', reason: /changed between the audit and taking its lease/ });
    t.match(err, /drift: action \d+ \(set-yaml on m1 .*base_sha256 planned/);
    t.equal(await readFile(yml, 'utf8'), edited, 'nothing written');
  },
);

t.test('the backup folder cannot be made: refused before any host is touched, exit 2', async (t) => {
  const blocker = join(work, 'a-file');
  await writeFile(blocker, 'not a folder\n');
  const before = await fingerprint(yml);
  const todo = (await plan()).map((a) => `${a.type} ${a.host ?? ''}`);
  const r = await runCli(fixArgs(lab.inventoryPath, { backupDir: join(blocker, 'backups') }), { cwd: '/tmp' });
  t.equal(r.code, 2, r.err);
  t.match(r.err, `--backup-dir ${join(blocker, 'backups')}: ${blocker} is not a directory`, 'names where and why');
  t.equal(r.out, '', 'no report: nothing was read or done');
  t.same(await fingerprint(yml), before, 'the config was not written');
  t.same(await temps(yml), [], 'no temp file');
  t.same(
    (await plan()).map((a) => `${a.type} ${a.host ?? ''}`),
    todo,
    'the cluster still needs every action',
  );
});

t.test('a restart that hangs: TIMEOUT, the rest skipped, exit 3, no process left on the host', async (t) => {
  const inv = await inventoryWith('hang', { restart_command: 'sleep 4321.5' });
  // only m1's restart has 1 s (its command 5 s), on a clock that stands at the step's start: a loaded machine can
  // neither cut it to 4 s before the command is sent nor fail a step before it (those have --timeout 20)
  const hang: RunDeps['steps'] = {
    'restart-service': (a, env) => {
      if (a.host !== 'm1') return restartService(a, env);
      const at = env.now();
      return restartService(a, { ...env, timeout: 1, now: () => at });
    },
  };
  const r = await runCli(fixArgs(inv, { timeout: 20, backupDir: join(work, 'hang') }), {
    cwd: '/tmp',
    deps: { steps: hang },
  });
  const report = JSON.parse(r.out) as Report;
  t.equal(r.code, 3, r.err);
  const acts = actionsOf(report);
  const i = acts.findIndex((a) => a.type === 'restart-service' && a.host === 'm1');
  t.match(acts[i], { status: 'failed', error: /did not finish within 5s/ }, steps(report).join('; '));
  // in the order they ran (the elected manager's restart is moved last), as the step lines number them
  const ran = [...r.err.matchAll(/smdoctor: ([✓✗–]) \[[^\]]*\] (\d+)\. (\S+)(?: on (\S+))?/g)].map((m) => ({
    mark: m[1],
    step: Number(m[2]),
    what: `${m[3]}${m[4] ? ` ${m[4]}` : ''}`,
  }));
  const hung = ran.find((s) => s.what === 'restart-service m1');
  t.equal(hung?.mark, '✗', ran.map((s) => `${s.step}. ${s.mark} ${s.what}`).join('; '));
  const before = ran.filter((s) => s.step < hung!.step);
  const after = ran.filter((s) => s.step > hung!.step);
  t.ok(before.length > 0 && before.every((s) => s.mark === '✓'), 'what came before was done');
  t.ok(after.length > 0 && after.every((s) => s.mark === '–'), 'the rest skipped');
  t.equal(ran.length, acts.length, 'every action has its step line');
  t.equal(await leftoverProcesses('sleep 4321.5', 6000), '', 'the hanging command was killed');
});

t.test("secrets on a failing command's stderr reach no output, in any format", async (t) => {
  const password = (
    await readFile(String(parse(await readFile(lab.inventoryPath, 'utf8')).all.vars.api_password_file), 'utf8')
  ).trim();
  const invSecret = 'inv-S3cret-77';
  const errFile = join(work, 'stderr.txt');
  // what a real restart script might print: a prompt echo, a URL with credentials, a bare value
  await writeFile(
    errFile,
    `password: hunter2\ncurl: (22) https://admin:${password}@127.0.0.1:9200 failed\nlogin refused for ${invSecret}\n`,
  );
  const inv = await inventoryWith(
    'secrets',
    { restart_command: `cat ${errFile} >&2; exit 1` },
    { api_password: invSecret },
  );
  for (const format of ['json', 'text', 'markdown', 'junit'] as const) {
    const r = await runCli(fixArgs(inv, { format, timeout: 20, backupDir: join(work, 'secrets') }, '-v'), {
      cwd: '/tmp',
    });
    t.equal(r.code, 3, `${format}: the restart failed`);
    t.match(r.out + r.err, /exit 1/, `${format}: the failure is reported`);
    for (const s of ['hunter2', password, invSecret]) {
      t.notOk(r.out.includes(s), `${format}: ${s === password ? 'the API password' : s} not on stdout`);
      t.notOk(r.err.includes(s), `${format}: ${s === password ? 'the API password' : s} not on stderr`);
    }
  }
});

t.test(
  'after those failures, a second fix finishes the work and the audit passes; -v shows no file content',
  async (t) => {
    const todo = await plan();
    t.ok(todo.length > 0, 'work was left');
    const markers: string[] = [];
    for (const f of new Set(todo.filter((a) => a.path).map((a) => a.path!))) {
      const m = `# marker ${markers.length} ${Math.random().toString(36).slice(2)}`;
      markers.push(m);
      await appendFile(f, `${m}\n`);
    }
    const r = await fix(lab.inventoryPath, join(work, 'final'), '-v');
    t.equal(r.code, 0, r.err);
    t.same(
      actionsOf(r.report)
        .filter((a) => a.status !== 'done')
        .map((a) => `${a.type} ${a.status} ${a.error ?? ''}`),
      [],
      'every action done',
    );
    t.match(r.err, /smdoctor: m1: /, 'the run was traced');
    for (const m of markers) t.notOk(r.err.includes(m), 'no file content (nor stdin of a write) in the trace');
    const audit = await runCli(['audit', '-i', lab.inventoryPath, '--format', 'json', '--timeout', '20'], {
      cwd: '/tmp',
    });
    t.equal(audit.code, 0, 'audit passes');
  },
);
