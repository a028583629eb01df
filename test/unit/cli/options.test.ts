/** Option defaults have one source: the help shows them, and a command called without commander gets the same. */
import t from 'tap';
import { DEFAULTS } from '../../../src/base/defaults.ts';
import { auditArgs, exportArgs, fixArgs, labArgs, migrateStoredArgs, serveArgs } from '../../../src/cli/args.ts';
import { runCli } from '../../helpers/cli.ts';

t.test('the help of each fleet command shows the defaults of the table', async (t) => {
  const audit = (await runCli(['audit', '--help'])).out.replace(/\s+/g, ' ');
  t.match(audit, `hosts gathered in parallel (default: ${DEFAULTS.forks})`);
  t.match(audit, `timeout of each remote command (default: ${DEFAULTS.timeout})`);
  t.match(audit, `(default: ${DEFAULTS.jumpChannels})`);
  t.match(audit, `--history keeps (default: ${DEFAULTS.historyKeep})`);
  const fix = (await runCli(['fix', '--help'])).out.replace(/\s+/g, ' ');
  t.match(fix, `(default: "${DEFAULTS.backupDir}")`);
  t.match(fix, `(default: "${DEFAULTS.planMaxAge}")`);
  const jobs = (await runCli(['migrate', 'jobs', '--help'])).out.replace(/\s+/g, ' ');
  t.match(jobs, `default: "${DEFAULTS.source}")`);
  const serve = (await runCli(['serve', '--help'])).out.replace(/\s+/g, ' ');
  t.match(serve, `(±10 % jitter) (default: ${DEFAULTS.interval})`);
  t.match(serve, `(default: "${DEFAULTS.listen}")`);
});

t.test("each command's reader fills in what a caller left out, and keeps what it gave", async (t) => {
  const fleet = {
    inventory: [],
    vaultPasswordFile: [],
    vaultId: [],
    askVaultPass: false,
    forks: DEFAULTS.forks,
    jumpChannels: DEFAULTS.jumpChannels,
    timeout: DEFAULTS.timeout,
    verbose: DEFAULTS.verbose,
  };
  const audit = { ...fleet, historyKeep: DEFAULTS.historyKeep, pack: [] };
  t.same(auditArgs({}), audit, 'audit: every default, nothing else');
  t.same(fixArgs({}), {
    ...audit,
    yes: false,
    backupDir: DEFAULTS.backupDir,
    allowYellow: false,
    breakLease: false,
    planMaxAge: DEFAULTS.planMaxAge,
  });
  t.same(exportArgs({}), {
    pack: [],
    inventory: [],
    vaultPasswordFile: [],
    vaultId: [],
    askVaultPass: false,
    planMaxAge: DEFAULTS.planMaxAge,
    forks: DEFAULTS.forks,
    allowYellow: false,
    timeout: DEFAULTS.timeout,
  });
  t.same(migrateStoredArgs({}), {
    ...fleet,
    apply: false,
    yes: false,
    backupDir: DEFAULTS.backupDir,
    breakLease: false,
    source: DEFAULTS.source,
    historyKeep: DEFAULTS.historyKeep,
  });
  t.same(labArgs({}), { dir: DEFAULTS.labDir, scenario: DEFAULTS.scenario, layout: DEFAULTS.layout, bastion: false });
  t.match(serveArgs({}), { interval: DEFAULTS.interval, listen: DEFAULTS.listen, logFormat: DEFAULTS.logFormat });
  t.notOk('hashSecret' in serveArgs({}), 'a flag without a default is left out');
  t.same(auditArgs({ forks: 3, timeout: 9, historyKeep: 2 }), { ...audit, forks: 3, timeout: 9, historyKeep: 2 });
  t.match(fixArgs({ backupDir: '/b', planMaxAge: '2d', yes: true }), { backupDir: '/b', planMaxAge: '2d', yes: true });
  t.match(serveArgs({ hashSecret: true, logFormat: 'json' }), { hashSecret: true, logFormat: 'json' });
  t.same(labArgs({ dir: 'x', scenario: 'clean', layout: 'repo', format: 'json' }), {
    dir: 'x',
    scenario: 'clean',
    layout: 'repo',
    bastion: false,
    format: 'json',
  });
});
