/** Option defaults have one source: the help shows them, and a command called without commander gets the same. */
import t from 'tap';
import { DEFAULTS } from '../../../src/base/defaults.ts';
import { auditOptions, exportOptions, fixOptions, labOptions, migrateOptions } from '../../../src/cli/options.ts';
import { runCli } from '../../helpers/cli.ts';

t.test('the help of each fleet command shows the defaults of options.ts', async (t) => {
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
});

t.test("each command's reader fills in what a caller left out, and keeps what it gave", async (t) => {
  const fleet = { forks: DEFAULTS.forks, timeout: DEFAULTS.timeout, historyKeep: DEFAULTS.historyKeep };
  t.same(auditOptions({}), fleet);
  t.same(fixOptions({}), { ...fleet, backupDir: DEFAULTS.backupDir, planMaxAge: DEFAULTS.planMaxAge });
  t.same(exportOptions({}), { timeout: DEFAULTS.timeout, planMaxAge: DEFAULTS.planMaxAge });
  t.same(migrateOptions({}), { ...fleet, backupDir: DEFAULTS.backupDir, source: DEFAULTS.source });
  t.same(labOptions({}), { dir: DEFAULTS.labDir, scenario: DEFAULTS.scenario, layout: DEFAULTS.layout });
  t.same(auditOptions({ forks: 3, timeout: 9, historyKeep: 2 }), { forks: 3, timeout: 9, historyKeep: 2 });
  t.match(fixOptions({ backupDir: '/b', planMaxAge: '2d' }), { backupDir: '/b', planMaxAge: '2d' });
  t.same(exportOptions({ timeout: 9, planMaxAge: '90m' }), { timeout: 9, planMaxAge: '90m' });
  t.match(migrateOptions({ forks: 3, source: 'compare', backupDir: '/b' }), {
    forks: 3,
    source: 'compare',
    backupDir: '/b',
  });
  t.same(labOptions({ dir: 'x', scenario: 'clean', layout: 'repo' }), { dir: 'x', scenario: 'clean', layout: 'repo' });
});
