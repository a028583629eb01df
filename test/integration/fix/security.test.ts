/**
 * The cluster's security plugin refuses smdoctor: a read-only API user (fix cannot write, and says which permission
 * is missing), and no credentials at all (audit and fix say so and what to set). Both are exit 3, nothing written.
 */
import t from 'tap';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.ts';
import { loadScenario, startLab } from '../../../lab/src/index.ts';

const lab = await startLab({
  scenario: { ...loadScenario('base-limit-document'), api_access: 'read' },
  restartDelayMs: 50,
});
t.teardown(() => lab.stop());

// the first write of fix and of migrate --apply is their lease (a small index of smdoctor's own): refused, it stops all
const MISSING = 'user admin lacks the permission indices:admin/create';

t.test('audit reads with a read-only user; fix reports the missing write permission, exit 3', async (t) => {
  const audit = await runCli(['audit', '-i', lab.inventoryPath], { cwd: '/tmp' });
  t.equal(audit.code, 1, 'audit needs reads only: it finds the missing document');
  const fix = await runCli(
    ['fix', '-i', lab.inventoryPath, '--yes', '--timeout', '20', '--backup-dir', join(t.testdir({}), 'b')],
    { cwd: '/tmp' },
  );
  t.equal(fix.code, 3, fix.err);
  const said = fix.out + fix.err;
  t.match(said, MISSING);
  t.match(
    said,
    "grant it to one of that user's roles in the security plugin, or set api_username to a user that has it",
  );
  const again = await runCli(['audit', '-i', lab.inventoryPath], { cwd: '/tmp' });
  t.equal(again.code, 1, 'nothing was written: the document is still missing');
});

t.test(
  'migrate --apply with a read-only user: refused before any rewrite, naming the missing permission',
  async (t) => {
    const r = await runCli(
      [
        'migrate',
        'jobs',
        '-i',
        lab.inventoryPath,
        '--apply',
        '--yes',
        '--format',
        'json',
        '--backup-dir',
        join(t.testdir({}), 'b'),
      ],
      { cwd: '/tmp' },
    );
    t.equal(r.code, 3, r.err);
    t.match(r.err, MISSING, 'the lease is refused, naming the permission');
    t.match(r.err, 'nothing was changed');
    t.equal(r.out.trim(), '', 'no document was rewritten');
  },
);

t.test('no credentials: audit and fix say the cluster refused them and what to set, exit 3', async (t) => {
  const text = await readFile(lab.inventoryPath, 'utf8');
  const bare = text.replace(/^\s*api_(username|password_file):.*\n/gm, '');
  t.not(bare, text);
  const dir = t.testdir({});
  const inventory = join(dir, 'inventory.yml');
  await writeFile(inventory, bare);
  const advice =
    "HTTP 401 Unauthorized: the cluster refused smdoctor's credentials (none were sent, or the user or password is wrong); " +
    'set api_username and api_password_file (or api_password_env) for this cluster in the inventory';
  const audit = await runCli(['audit', '-i', inventory], { cwd: '/tmp' });
  t.equal(audit.code, 3, audit.err);
  t.match(audit.out + audit.err, advice);
  const fix = await runCli(['fix', '-i', inventory, '--yes', '--timeout', '20', '--backup-dir', join(dir, 'b')], {
    cwd: '/tmp',
  });
  t.equal(fix.code, 3, fix.err);
  t.match(fix.out + fix.err, advice);
});
